import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { AppModule } from '../src/app.module';
import { IdentityConfig } from '../src/config/identity.config';

describe('identity health', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    const config = loadConfig(IdentityConfig, { LOG_LEVEL: 'error' });
    app = await createServiceApp(
      { service: 'identity', configClass: IdentityConfig, rootModule: () => AppModule, port: () => 0, host: () => '127.0.0.1', globalPrefix: 'v1' },
      config,
    );
    await app.init();
  });
  afterAll(() => app.close());

  it('answers /healthz and /readyz', async () => {
    await request(app.getHttpServer()).get('/healthz').expect(200, { status: 'ok' });
    await request(app.getHttpServer()).get('/readyz').expect(200, { status: 'ready', checks: {} });
  });

  it('answers an unknown route with problem details', async () => {
    const response = await request(app.getHttpServer()).get('/v1/nothing-here').expect(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 404, code: 'route_not_found' });
  });
});
