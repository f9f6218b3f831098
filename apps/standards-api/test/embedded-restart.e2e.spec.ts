import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../src/config/standards-api.config';
import { STANDARDS_API } from '../src/standards-api.service';

// Always the embedded default, whatever DATABASE_URL the run has: this is what `npm start` relies on.
describe('the embedded default database', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-embedded-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function start() {
    const app = await createServiceApp(STANDARDS_API, loadConfig(StandardsApiConfig, { LOG_LEVEL: 'error', DATA_DIR: dataDir }));
    await app.init();
    return app;
  }

  it('keeps the registry across a restart and imports the sample pack only on first start', async () => {
    const first = await start();
    const before = (await request(first.getHttpServer()).get('/api/v2/manifest').expect(200)).body;
    await first.close();

    const second = await start();
    const after = (await request(second.getHttpServer()).get('/api/v2/manifest').expect(200)).body;
    const releases = await second.get(DataSource).query('SELECT count(*)::int AS count FROM content_release');
    await second.close();

    expect(after.digest).toBe(before.digest);
    expect(after.provenance.importedAt).toBe(before.provenance.importedAt);
    expect(releases).toEqual([{ count: 1 }]);
  });
});
