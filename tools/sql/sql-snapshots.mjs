// SQL snapshots: every query text of every repository (apps/*/src/**/*.repository.ts), method by method,
// written to sql/<repository>.sql beside it, so a change to data access shows as a SQL diff in review.
// The texts are read from the repositories' own code (TypeScript's parser): a string or template passed to
// .query() or to the kit's preparedQuery(), followed through the constants and the *.repository.sql.ts
// modules it names; an interpolation that is not a constant stays as ${...}. A TypeORM call
// (getRepository(...).find(...)) is listed as written; a function of another module the repository calls
// (the kit's insertOutboxEvent) is followed and its queries listed under the method that calls it. A method
// that names a DataSource, an EntityManager or a QueryRunner but yields no query fails both commands: the
// tool does not know the helper it goes through, and its snapshot would hide the query.
//
//   node tools/sql/sql-snapshots.mjs           writes every snapshot (npm run sql:generate)
//   node tools/sql/sql-snapshots.mjs --check   fails when a snapshot is stale, missing or orphaned, or a
//                                              repository's database work yields no query (npm run sql:check)
//
// Query plans at size stay in the scale bench (*.repository.explain.md).
import { existsSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const DATABASE_HANDLES = new Set(['dataSource', 'manager', 'DataSource', 'EntityManager', 'QueryRunner', 'queryRunner']);
const unread = [];
// --root <dir> reads another tree laid out as this one (the tool's spec plants faults in a copy).
const ROOT = process.argv.includes('--root')
  ? path.resolve(process.argv[process.argv.indexOf('--root') + 1])
  : path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
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
    const bindings = statement.importClause.namedBindings;
    if (!ts.isNamedImports(bindings)) continue;
    const imported = bindings.elements.find((element) => element.name.text === name);
    if (!imported) continue;
    const target = moduleFile(statement.moduleSpecifier.text, file.fileName);
    if (target) return exportedNamed((imported.propertyName ?? imported.name).text, sourceOf(target));
  }
  return null;
}

/** The workspace's path aliases (tsconfig.base.json), e.g. @stdreg/server-kit/database → its index.ts. */
const ALIASES = (() => {
  const config = path.join(ROOT, 'tsconfig.base.json');
  if (!existsSync(config)) return new Map();
  const { config: parsed } = ts.readConfigFile(config, ts.sys.readFile);
  return new Map(Object.entries(parsed?.compilerOptions?.paths ?? {}).map(([alias, [target]]) => [alias, path.join(ROOT, target)]));
})();

/** The .ts file an import names: a relative path, or one of the workspace's aliases; null for a package. */
function moduleFile(specifier, from) {
  if (ALIASES.has(specifier)) return existsSync(ALIASES.get(specifier)) ? ALIASES.get(specifier) : null;
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  return (
    [base, `${base}.ts`, path.join(base, 'index.ts')]
      .filter((candidate) => candidate.endsWith('.ts'))
      .find((candidate) => existsSync(candidate)) ?? null
  );
}

/** A name a module declares at its top level or re-exports (`export * from`, `export { name } from`). */
function exportedNamed(name, file, seen = new Set()) {
  if (seen.has(file.fileName)) return null;
  seen.add(file.fileName);
  const own = constantNamed(name, file);
  if (own) return own;
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const clause = statement.exportClause;
    const element = clause && ts.isNamedExports(clause) ? clause.elements.find((e) => e.name.text === name) : null;
    if (clause && !element) continue;
    const target = moduleFile(statement.moduleSpecifier.text, file.fileName);
    const found = target && exportedNamed((element?.propertyName ?? element?.name)?.text ?? name, sourceOf(target), seen);
    if (found) return found;
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

/** The SQL of one text argument: each text it can be, or a note when it is built at run time. */
function sqlOf(argument) {
  const texts = textsOf(argument);
  if (!texts) return [`-- (a text built at run time: ${argument.getText().replace(/\s+/g, ' ')})`];
  return texts.map(tidy).map((text) => (text.endsWith(';') ? text : `${text};`));
}

/**
 * Every query a function runs, in the order its code names them: `.query(text)`, `preparedQuery(dataSource,
 * name, text, values)` (the kit's named statements), a TypeORM repository call, and the queries of a function
 * it calls that lives in another module (e.g. the kit's insertOutboxEvent), followed there.
 */
function queriesIn(fn, following = new Set()) {
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'query' && node.arguments.length > 0 && !ts.isObjectLiteralExpression(unwrap(node.arguments[0]))) {
        found.push(...sqlOf(node.arguments[0]));
      } else if (TYPEORM_CALLS.has(method) && /getRepository\(/.test(node.expression.expression.getText())) {
        found.push(`-- TypeORM: ${node.getText().replace(/\s+/g, ' ')}`);
      }
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (name === 'preparedQuery' && node.arguments.length >= 3) {
        const statement = textsOf(node.arguments[1]);
        found.push(
          `-- prepared statement ${statement?.length === 1 ? statement[0] : node.arguments[1].getText()}\n${sqlOf(node.arguments[2]).join('\n\n')}`,
        );
      } else if (!following.has(name)) {
        const callee = constantNamed(name, node);
        const body =
          callee && (ts.isFunctionDeclaration(callee) || ts.isArrowFunction(callee) || ts.isFunctionExpression(callee)) ? callee : null;
        if (body && body.getSourceFile() !== node.getSourceFile()) {
          const inner = queriesIn(body, new Set([...following, name]));
          const where = path.relative(ROOT, body.getSourceFile().fileName);
          if (inner.length > 0) found.push(`-- through ${name} (${where})\n${inner.join('\n\n')}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}

/** Whether some node under `fn` (itself included) satisfies `test`. */
function contains(fn, test) {
  return test(fn) || ts.forEachChild(fn, (child) => contains(child, test) || undefined) === true;
}

/** Whether a function reaches the database: it names a DataSource, an EntityManager or a QueryRunner. */
const touchesDatabase = (fn) => contains(fn, (node) => ts.isIdentifier(node) && DATABASE_HANDLES.has(node.text));

/** Whether a function hands the work to another method of its class (`this.other(...)`). */
const delegates = (fn) =>
  contains(
    fn,
    (node) =>
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.kind === ts.SyntaxKind.ThisKeyword,
  );

function snapshotOf(file) {
  const source = sourceOf(file);
  const sections = [];
  const add = (name, fn) => {
    const queries = queriesIn(fn);
    if (queries.length > 0) sections.push(`-- ${name}\n${queries.join('\n\n')}`);
    else if (!ts.isConstructorDeclaration(fn) && touchesDatabase(fn) && !delegates(fn))
      unread.push(`${path.relative(ROOT, file)}: ${name}`);
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
  const database = source.statements.some(
    (statement) => ts.isImportDeclaration(statement) && ['typeorm', '@stdreg/server-kit/database'].includes(statement.moduleSpecifier.text),
  );
  if (database && sections.length === 0 && !unread.some((entry) => entry.startsWith(`${relative}: `)))
    unread.push(`${relative}: (the whole file)`);
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

// A repository that reaches the database through something this tool does not follow would get a snapshot
// without its queries, and a change to them would pass the check: refuse that rather than write a blind snapshot.
const blind = unread.map((entry) => `no query read (a query helper this tool does not follow?): ${entry}`);

if (process.argv.includes('--check')) {
  const problems = [...blind];
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
  if (blind.length > 0) {
    console.error(`Some database work was not read; teach tools/sql/sql-snapshots.mjs its helper:\n  ${blind.join('\n  ')}`);
    process.exit(1);
  }
}
