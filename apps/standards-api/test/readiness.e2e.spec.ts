import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer } from 'node:net';
import request from 'supertest';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { createTestDatabase, CuttableProxy, type TestDatabase } from '@stdreg/server-kit/testing';
import { StandardsApiConfig } from '../src/config/standards-api.config';
import { STANDARDS_API } from '../src/standards-api.service';

/** A PostgreSQL the test can take away: the run's server (DATABASE_URL), else PGlite served over TCP. */
async function databaseServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const database: TestDatabase = await createTestDatabase('standards_readiness');
  if (database.kind === 'server') return { url: database.env['DATABASE_URL']!, stop: () => database.drop() };
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const db = await PGlite.create('memory://');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 20 });
  await server.start();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop: async () => (await server.stop(), await db.close()) };
}

async function closedPort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function readiness(app: NestExpressApplication): Promise<{ status: number; checks: Record<string, string> }> {
  const response = await request(app.getHttpServer()).get('/readyz');
  return { status: response.status, checks: response.body.checks };
}

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let attempt = 0; attempt < 60 && !done(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await probe();
  }
  return value;
}

describe('standards-api readiness follows its database', () => {
  let database: { url: string; stop(): Promise<void> };
  let proxy: CuttableProxy;
  let app: NestExpressApplication;

  beforeAll(async () => {
    database = await databaseServer();
    proxy = await CuttableProxy.start(database.url);
    const identityNowhere = `http://127.0.0.1:${await closedPort()}`;
    const config = loadConfig(StandardsApiConfig, {
      LOG_LEVEL: 'fatal',
      DATABASE_URL: proxy.through(database.url),
      IDENTITY_URL: identityNowhere,
    });
    app = await createServiceApp(STANDARDS_API, config);
    await app.init();
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await proxy.close();
    await database.stop();
  });

  it('stays ready while identity is away, and says so beside its own checks', async () => {
    const response = await request(app.getHttpServer()).get('/readyz').expect(200);
    expect(response.body).toEqual({
      status: 'ready',
      checks: { database: 'up', 'registry-content': 'up' },
      downstream: { identity: 'down' },
    });
  });

  it('is ready, turns not ready while the database is away (still alive), and ready again when it returns', async () => {
    // The first check opens the pool's connection: on a loaded machine that may take longer than a check may.
    expect(
      await eventually(
        () => readiness(app),
        (r) => r.status === 200,
      ),
    ).toEqual({ status: 200, checks: { database: 'up', 'registry-content': 'up' } });

    await proxy.cut();
    expect(await readiness(app)).toEqual({ status: 503, checks: { database: 'down', 'registry-content': 'up' } });
    await request(app.getHttpServer()).get('/healthz').expect(200);

    await proxy.restore();
    expect(
      await eventually(
        () => readiness(app),
        (r) => r.status === 200,
      ),
    ).toEqual({
      status: 200,
      checks: { database: 'up', 'registry-content': 'up' },
    });
  });
});
