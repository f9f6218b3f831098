// SQL snapshots: every query text of every repository (apps/*/src/**/*.repository.ts), method by method,
// written to sql/<repository>.sql beside it, so a change to data access shows as a SQL diff in review.
// The texts are read from the repositories' own code (TypeScript's parser): a string or template passed to
// .query(), followed through the constants and the *.repository.sql.ts modules it names; an interpolation
// that is not a constant stays as ${...}. A TypeORM call (getRepository(...).find(...)) is listed as written.
//
//   node tools/sql/sql-snapshots.mjs           writes every snapshot (npm run sql:generate)
//   node tools/sql/sql-snapshots.mjs --check   fails when a snapshot is stale, missing or orphaned (npm run sql:check)
//
// Query plans at size stay in the scale bench (*.repository.explain.md).
import { existsSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const APPS = ['identity', 'mcp-gateway', 'standards-api'];
const TYPEORM_CALLS = new Set([
  'find',
  'findOne',
  'findBy',
  'findOneBy',
  'count',
  'exists',
  'insert',
  'save',
  'update',
  'delete',
  'upsert',
  'softDelete',
]);

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

const sources = new Map();
function sourceOf(file) {
  if (!sources.has(file)) {
    sources.set(file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  }
  return sources.get(file);
}

/** The initializer of a `const name = ...` visible from `node`: its own scopes first, then the file, then a relative import. */
function constantNamed(name, node) {
  for (let scope = node; scope; scope = scope.parent) {
    const statements = ts.isBlock(scope) || ts.isSourceFile(scope) ? scope.statements : null;
    if (!statements) continue;
    for (const statement of statements) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && declaration.name.text === name && declaration.initializer)
            return declaration.initializer;
        }
      }
      if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    }
  }
  const file = node.getSourceFile();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith('.')) continue;
    const bindings = statement.importClause.namedBindings;
    if (!ts.isNamedImports(bindings)) continue;
    const imported = bindings.elements.find((element) => element.name.text === name);
    if (!imported) continue;
    const base = path.resolve(path.dirname(file.fileName), specifier).replace(/\.js$/, '');
    const target = [base, `${base}.ts`].find((candidate) => existsSync(candidate) && candidate.endsWith('.ts'));
    if (target) return constantNamed((imported.propertyName ?? imported.name).text, sourceOf(target));
  }
  return null;
}

function unwrap(expression) {
  while (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression?.(expression)) {
    expression = expression.expression;
  }
  return expression;
}

/** The SQL texts an expression can be (a conditional gives each branch); null when it is not text we can read. */
function textsOf(expression, seen = new Set()) {
  expression = unwrap(expression);
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression.text];
  if (ts.isTemplateExpression(expression)) {
    let texts = [expression.head.text];
    for (const span of expression.templateSpans) {
      const inner = inlined(span.expression, seen);
      texts = texts.flatMap((text) => inner.map((piece) => text + piece + span.literal.text));
    }
    return texts;
  }
  if (ts.isConditionalExpression(expression)) {
    const both = [textsOf(expression.whenTrue, seen), textsOf(expression.whenFalse, seen)];
    return both.every(Boolean) ? both.flat() : null;
  }
  if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = textsOf(expression.left, seen);
    const right = textsOf(expression.right, seen);
    return left && right ? left.flatMap((l) => right.map((r) => l + r)) : null;
  }
  if (ts.isIdentifier(expression) && !seen.has(expression.text)) {
    const found = constantNamed(expression.text, expression);
    if (found && !ts.isFunctionDeclaration(found) && !ts.isArrowFunction(found)) {
      return textsOf(found, new Set([...seen, expression.text]));
    }
  }
  if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
    const found = constantNamed(expression.expression.text, expression);
    const body = found && (ts.isArrowFunction(found) || ts.isFunctionDeclaration(found)) ? returnedOf(found) : null;
    if (body) return textsOf(body, new Set([...seen, expression.expression.text]));
  }
  return null;
}

/** What a `${...}` stands for: the constant's text(s), or the expression as written. */
function inlined(expression, seen) {
  return textsOf(expression, seen) ?? ['${' + expression.getText().replace(/\s+/g, ' ') + '}'];
}

function returnedOf(fn) {
  if (fn.body && !ts.isBlock(fn.body)) return fn.body;
  const returns = fn.body?.statements.filter(ts.isReturnStatement) ?? [];
  return returns.length === 1 ? returns[0].expression : null;
}

/** Strips the indentation the source gave the text, so a snapshot reads as SQL. */
function tidy(text) {
  const lines = text
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const indents = lines
    .slice(1)
    .filter((line) => line.trim())
    .map((line) => line.match(/^ */)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((line) => line.slice(Math.min(cut, line.match(/^ */)[0].length)).trimEnd())].join('\n');
}

/** Every query a function runs, in the order its code names them. */
function queriesIn(fn) {
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'query' && node.arguments.length > 0) {
        const texts = textsOf(node.arguments[0]);
        if (texts) found.push(...texts.map(tidy).map((text) => (text.endsWith(';') ? text : `${text};`)));
        else found.push(`-- (a text built at run time: ${node.arguments[0].getText().replace(/\s+/g, ' ')})`);
      } else if (TYPEORM_CALLS.has(method) && /getRepository\(/.test(node.expression.expression.getText())) {
        found.push(`-- TypeORM: ${node.getText().replace(/\s+/g, ' ')}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

function snapshotOf(file) {
  const source = sourceOf(file);
  const sections = [];
  const add = (name, fn) => {
    const queries = queriesIn(fn);
    if (queries.length > 0) sections.push(`-- ${name}\n${queries.join('\n\n')}`);
  };
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement) && statement.name) {
      for (const member of statement.members) {
        if ((ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member)) && member.body) {
          add(`${statement.name.text}.${member.name?.getText() ?? 'constructor'}`, member);
        }
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      add(statement.name.text, statement);
    }
  }
  const relative = path.relative(ROOT, file);
  const header =
    `-- Every query of ${relative}, method by method, as its code writes it.\n` +
    '-- Generated by `npm run sql:generate`; CI (`npm run sql:check`) fails when this file is stale.';
  return `${header}\n\n${sections.join('\n\n')}\n`;
}

function snapshotPath(file) {
  return path.join(path.dirname(file), 'sql', `${path.basename(file, '.ts')}.sql`);
}

const repositories = APPS.flatMap((app) => walk(path.join(ROOT, 'apps', app, 'src')))
  .filter((file) => file.endsWith('.repository.ts'))
  .sort();
const expected = new Map(repositories.map((file) => [snapshotPath(file), snapshotOf(file)]));
const existing = APPS.flatMap((app) => walk(path.join(ROOT, 'apps', app, 'src'))).filter(
  (file) => file.endsWith('.repository.sql') && path.basename(path.dirname(file)) === 'sql',
);

if (process.argv.includes('--check')) {
  const problems = [];
  for (const [file, text] of expected) {
    if (!existsSync(file)) problems.push(`missing: ${path.relative(ROOT, file)}`);
    else if (readFileSync(file, 'utf8') !== text) problems.push(`stale: ${path.relative(ROOT, file)}`);
  }
  for (const file of existing) if (!expected.has(file)) problems.push(`orphaned (no repository): ${path.relative(ROOT, file)}`);
  if (problems.length > 0) {
    console.error(`SQL snapshots out of date; run npm run sql:generate and commit:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${expected.size} SQL snapshots match their repositories.`);
} else {
  for (const file of existing) if (!expected.has(file)) rmSync(file);
  for (const [file, text] of expected) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  console.log(`${expected.size} SQL snapshots written.`);
}
