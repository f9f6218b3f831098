// The environment variables each app's config class declares, read from its source as data (the
// TypeScript parser, not an import: deploy/ may not import app code), with their defaults.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const APPS = ['standards-api', 'identity', 'mcp-gateway'] as const;
export type AppName = (typeof APPS)[number];

export interface ConfigVariable {
  name: string;
  /** The initializer's source text; undefined when the variable has no default. */
  defaultText: string | undefined;
}

/** The shared config classes an app's config may extend, and where each is declared. */
const BASE_CONFIGS: Record<string, string> = {
  CommonServiceConfig: 'libs/server-kit/src/config/common-config.ts',
  AuthorizedServiceConfig: 'libs/authz-client/src/authorized-service-config.ts',
};
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const LOOPBACK = /127\.0\.0\.1|localhost|\[::1\]/;

function classIn(file: string, className?: string): ts.ClassDeclaration {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const classes = source.statements.filter(ts.isClassDeclaration).filter((c) => c.name && (!className || c.name.text === className));
  const found = classes.find((c) => c.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  if (!found) throw new Error(`no exported config class in ${file}`);
  return found;
}

function variablesOf(declaration: ts.ClassDeclaration): ConfigVariable[] {
  const own = declaration.members.filter(ts.isPropertyDeclaration).flatMap((member) => {
    const name = member.name.getText();
    if (!ENV_NAME.test(name)) return [];
    const initializer = member.initializer?.getText();
    return [{ name, defaultText: initializer === undefined || initializer === 'undefined' ? undefined : initializer }];
  });
  const base = declaration.heritageClauses?.flatMap((clause) => clause.types.map((t) => t.expression.getText()))[0];
  if (base === undefined) return own;
  const file = BASE_CONFIGS[base];
  if (file === undefined) throw new Error(`config class extends ${base}: teach deploy/test/support/config-variables.ts where it is`);
  return [...variablesOf(classIn(file, base)), ...own];
}

/** Where each app keeps its config class (identity files its config under platform/, with the other shared parts). */
const CONFIG_FILES: Record<AppName, string> = {
  identity: 'apps/identity/src/platform/config/identity.config.ts',
  'standards-api': 'apps/standards-api/src/config/standards-api.config.ts',
  'mcp-gateway': 'apps/mcp-gateway/src/config/mcp-gateway.config.ts',
};

/** Every variable the app's config class and the shared classes it extends declare. */
export function configVariables(app: AppName): ConfigVariable[] {
  return variablesOf(classIn(CONFIG_FILES[app]));
}

/** Whether the app opens a database of its own (its source uses the kit's DatabaseModule). */
export function hasDatabase(app: AppName): boolean {
  const walk = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) =>
      entry.isDirectory()
        ? walk(path.join(dir, entry.name))
        : entry.name.endsWith('.ts') && readFileSync(path.join(dir, entry.name), 'utf8').includes('DatabaseModule.forRoot('),
    );
  return walk(path.join(ROOT, 'apps', app, 'src'));
}

/**
 * The variables a deployment must set: those without a default (unless `mayStayUnset` says why not), and
 * those whose default points at this machine (127.0.0.1, localhost), which is wrong anywhere else.
 */
export function requiredInDeployment(app: AppName, mayStayUnset: readonly string[]): string[] {
  return configVariables(app)
    .filter((v) => (v.defaultText === undefined ? !mayStayUnset.includes(v.name) : LOOPBACK.test(v.defaultText)))
    .map((v) => v.name)
    .filter((name) => name !== 'DATABASE_URL' || hasDatabase(app));
}

/** Values that must come from a Secret, never a ConfigMap or the compose file in clear. */
export const SENSITIVE = /(TOKEN|TOKENS|SECRET|SECRET_KEY|COOKIE_KEYS|JWKS|PASSWORD)$|^(DATABASE_URL|REDIS_URL)$/;

export function migrateEntryPoint(app: AppName): string | undefined {
  const buildFile = path.join(ROOT, 'apps', app, 'build.json');
  if (!existsSync(buildFile)) return undefined;
  const build = JSON.parse(readFileSync(buildFile, 'utf8')) as { entryPoints: Record<string, string> };
  return build.entryPoints['migrate'];
}
