import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const APPS = ['standards-api', 'mcp-gateway', 'identity'];
// The module-boundaries rule needs Nx's project graph, which a bare ESLint run does not have; it is not the one tested.
const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { '@nx/enforce-module-boundaries': 'off' } } });

/** Lints `source` as if it were the file at `file` (relative to the repository): the lines of each message of the rule. */
async function restrictedLines(file: string, source: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map(({ line, message }) => ({ line, message }));
}

const GLOBAL_MODULES = `import * as common from '@nestjs/common';
import { Global, Module, type DynamicModule } from '@nestjs/common';
@Global()
@Module({})
export class Decorated {}
@common.Global()
@Module({})
export class ThroughTheNamespace {}
export const registered: DynamicModule = { module: Decorated, global: true };
export const quoted = { module: Decorated, 'global': !0 };
registered.global = true;
export const local: DynamicModule = { module: Decorated, global: false };
`;
const GLOBAL_LINES = [3, 6, 9, 10, 11];
const A_QUERY = `export const count = (db: { query(sql: string): unknown }) => db.query('SELECT 1');\n`;

describe("lint: no module of an app's own is global (issue 29)", () => {
  it.each(APPS)('refuses @Global() and global: true in a module of %s, and nothing else of the planted file', async (app) => {
    const lines = await restrictedLines(`apps/${app}/src/planted/planted.module.ts`, GLOBAL_MODULES);
    expect(lines.map(({ line }) => line)).toEqual(GLOBAL_LINES);
    expect(lines[0]!.message).toMatch(/not global/);
  });

  it('refuses them in a repository too, where queries are allowed', async () => {
    const lines = await restrictedLines('apps/identity/src/planted/planted.repository.ts', GLOBAL_MODULES + A_QUERY);
    expect(lines.map(({ line }) => line)).toEqual(GLOBAL_LINES);
  });

  it("allows them in the framework's modules (libs/server-kit) and in specs", async () => {
    expect(await restrictedLines('libs/server-kit/src/planted/planted.module.ts', GLOBAL_MODULES)).toEqual([]);
    expect(await restrictedLines('apps/standards-api/src/planted/planted.spec.ts', GLOBAL_MODULES)).toEqual([]);
  });
});

describe('lint: every query in a repository', () => {
  it('still refuses a query outside a repository, beside the rule on global modules', async () => {
    const lines = await restrictedLines('apps/mcp-gateway/src/planted/planted.service.ts', A_QUERY);
    expect(lines).toEqual([{ line: 1, message: 'Queries belong in a *.repository.ts (or a migration).' }]);
  });

  it('allows it in a repository', async () => {
    expect(await restrictedLines('apps/standards-api/src/planted/planted.repository.ts', A_QUERY)).toEqual([]);
  });
});

const ERRORS_RAISED = `import * as common from '@nestjs/common';
import { NotFoundException } from '@nestjs/common';
import { DomainError } from '@stdreg/server-kit';
import { ErrorCode } from '@stdreg/contracts';
export const made = () => new DomainError(ErrorCode.NotFound, 'No such thing.');
export const named = () => DomainError.of('keys.not_found', 'No such key.');
export const nest = () => new NotFoundException('No such thing.');
export const throughTheNamespace = () => new common.BadRequestException('No.');
export const programmingError = () => new Error('unreachable');
`;
const ERRORS_RAISED_LINES = [5, 6, 7, 8];

describe("lint: errors are declared in their feature's *.errors.ts (issue 29)", () => {
  it.each(APPS)('refuses a DomainError or a Nest exception made in a service of %s, not a plain Error', async (app) => {
    const lines = await restrictedLines(`apps/${app}/src/planted/planted.service.ts`, ERRORS_RAISED);
    expect(lines.map(({ line }) => line)).toEqual(ERRORS_RAISED_LINES);
    expect(lines[0]!.message).toMatch(/\*\.errors\.ts/);
  });

  it('refuses them in a repository too, where queries are allowed', async () => {
    const lines = await restrictedLines('apps/identity/src/planted/planted.repository.ts', ERRORS_RAISED + A_QUERY);
    expect(lines.map(({ line }) => line)).toEqual(ERRORS_RAISED_LINES);
  });

  it("allows them in a feature's *.errors.ts, which still refuses a query and a global module", async () => {
    expect(await restrictedLines('apps/standards-api/src/planted/planted.errors.ts', ERRORS_RAISED)).toEqual([]);
    const lines = await restrictedLines('apps/standards-api/src/planted/planted.errors.ts', A_QUERY + GLOBAL_MODULES);
    expect(lines.map(({ line }) => line)).toEqual([1, ...GLOBAL_LINES.map((line) => line + 1)]);
  });

  it('allows them in specs and outside the apps', async () => {
    expect(await restrictedLines('apps/identity/src/planted/planted.spec.ts', ERRORS_RAISED)).toEqual([]);
    expect(await restrictedLines('libs/server-kit/src/planted/planted.ts', ERRORS_RAISED)).toEqual([]);
  });
});
