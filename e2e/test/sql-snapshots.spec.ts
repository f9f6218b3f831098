import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOOL = path.join(ROOT, 'tools/sql/sql-snapshots.mjs');
const CALLERS = 'apps/identity/src/access/callers';

/** Runs the snapshot tool on a copy of the tree: its exit code and what it printed. */
function run(root: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [TOOL, ...args, '--root', root], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('SQL snapshots (npm run sql:check) of the repositories that go through preparedQuery', () => {
  let root: string;

  beforeEach(() => {
    // The repositories of identity's callers (the two hot-path reads, both prepared statements), their
    // text modules and snapshots, and the workspace's aliases: a tree the tool reads as it reads the real one.
    root = mkdtempSync(path.join(tmpdir(), 'sql-snapshots-'));
    cpSync(path.join(ROOT, CALLERS), path.join(root, CALLERS), { recursive: true });
    cpSync(path.join(ROOT, 'tsconfig.base.json'), path.join(root, 'tsconfig.base.json'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes on the committed snapshots, which show the prepared texts', () => {
    const { status, output } = run(root, '--check');
    expect(output).toContain('match their repositories');
    expect(status).toBe(0);
    const snapshot = readFileSync(path.join(root, CALLERS, 'sql/access-token-subject.repository.sql'), 'utf8');
    expect(snapshot).toContain('-- prepared statement identity-access-token-subject');
    expect(snapshot).toContain('NOT EXISTS (SELECT 1 FROM revoked_access_token t WHERE t.jti IN ($4, $5)) AS "tokenActive"');
  });

  it('fails when the text of a prepared query changed and its snapshot did not', () => {
    const module = path.join(root, CALLERS, 'access-token-subject.repository.sql.ts');
    const text = readFileSync(module, 'utf8');
    expect(text).toContain('WHERE t.jti IN ($4, $5)');
    writeFileSync(module, text.replace('WHERE t.jti IN ($4, $5)', 'WHERE t.jti = $4 AND false'));

    const { status, output } = run(root, '--check');
    expect(output).toContain(`stale: ${CALLERS}/sql/access-token-subject.repository.sql`);
    expect(output).not.toContain('key-credentials');
    expect(status).toBe(1);
  });

  it('fails when a repository reaches the database through a helper it cannot read, rather than write a blind snapshot', () => {
    writeFileSync(
      path.join(root, CALLERS, 'planted.repository.ts'),
      `import { DataSource } from 'typeorm';
import { runSql } from 'some-sql-helper';

export class PlantedRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(id: string): Promise<unknown[]> {
    return runSql(this.dataSource, 'SELECT * FROM api_key WHERE id = $1', [id]);
  }
}
`,
    );
    for (const args of [['--check'], []]) {
      const { status, output } = run(root, ...args);
      expect(output).toContain(
        `no query read (a query helper this tool does not follow?): ${CALLERS}/planted.repository.ts: PlantedRepository.find`,
      );
      expect(status).toBe(1);
    }
  });
});
