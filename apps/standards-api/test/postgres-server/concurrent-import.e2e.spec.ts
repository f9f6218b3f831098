// Needs a PostgreSQL server: two imports run in transactions of their own, and a third connection holds
// a table both want, so that both have begun before either can finish.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { samplePackDirectory } from '@stdreg/registry-content';
import { ContentImportService } from '../../src/content-import/content-import.service';
import { startStandardsApi, type RunningStandardsApi } from '../support/standards-api-app';

let api: RunningStandardsApi;
let workDir: string;

beforeAll(async () => {
  api = await startStandardsApi({ CONTENT_REFRESH_SECONDS: '3600' });
  workDir = await mkdtemp(path.join(tmpdir(), 'stdreg-concurrent-import-'));
});
afterAll(async () => {
  await api.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('two imports of one pack at once', () => {
  it('record one release: the second waits for the first and finds its content current', async () => {
    const directory = path.join(workDir, 'pack');
    await cp(samplePackDirectory(), directory, { recursive: true });
    const meta = JSON.parse(await readFile(path.join(directory, 'pack.json'), 'utf8'));
    await writeFile(path.join(directory, 'pack.json'), JSON.stringify({ ...meta, packVersion: '2027.3.0' }, null, 2));

    const blocker = api.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query('LOCK TABLE standard_block_version IN ACCESS EXCLUSIVE MODE');
    const imports = [0, 1].map(() => api.app.get(ContentImportService).importPack(directory));
    try {
      // Both imports wait: on the table, or on the other import.
      for (let attempt = 0; ; attempt++) {
        const [{ waiting }] = await api.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_locks
            WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if (waiting >= 2) break;
        if (attempt > 400) throw new Error('the two imports never both waited');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await blocker.commitTransaction();
      await blocker.release();
    }
    const outcomes = await Promise.all(imports);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['imported', 'unchanged']);
    const [{ releases }] = await api.dataSource.query(
      `SELECT count(*)::int AS releases FROM content_release WHERE pack_version = '2027.3.0'`,
    );
    expect(releases).toBe(1);
  });
});
