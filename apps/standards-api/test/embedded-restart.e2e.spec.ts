import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../src/config/standards-api.config';
import { STANDARDS_API } from '../src/standards-api.service';

/**
 * Two cold starts of the embedded database, the first with initdb, compile PGlite's WebAssembly
 * twice; on a busy two-core machine that alone has taken over 30 s.
 */
const TWO_COLD_STARTS_MS = 240_000;

// Always the embedded default, whatever DATABASE_URL the run has: this is what `npm start` relies on.
describe('the embedded default database', () => {
  let dataDir: string;
  let running: INestApplication | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-embedded-'));
  });
  // An app still open here (a failed expectation, say) is closed before its files are removed under it.
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<INestApplication> {
    const app = await createServiceApp(STANDARDS_API, loadConfig(StandardsApiConfig, { LOG_LEVEL: 'error', DATA_DIR: dataDir }));
    running = app;
    await app.init();
    return app;
  }

  async function stop(app: INestApplication): Promise<void> {
    await app.close();
    running = undefined;
  }

  it(
    'keeps the registry across a restart and imports the sample pack only on first start',
    async () => {
      const first = await start();
      const before = (await request(first.getHttpServer()).get('/api/v2/manifest').expect(200)).body;
      await stop(first);

      const second = await start();
      const after = (await request(second.getHttpServer()).get('/api/v2/manifest').expect(200)).body;
      const releases = await second.get(DataSource).query('SELECT count(*)::int AS count FROM content_release');
      await stop(second);

      expect(after.digest).toBe(before.digest);
      expect(after.provenance.importedAt).toBe(before.provenance.importedAt);
      expect(releases).toEqual([{ count: 1 }]);
    },
    TWO_COLD_STARTS_MS,
  );
});
