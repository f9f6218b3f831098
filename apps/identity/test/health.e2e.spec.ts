import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { IdentityConfig } from '../src/config/identity.config';
import { IDENTITY } from '../src/identity.service';

describe('identity health', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createServiceApp(IDENTITY, loadConfig(IdentityConfig, { LOG_LEVEL: 'error' }));
    await app.init();
  });
  afterAll(() => app.close());

  it('answers /healthz and /readyz', async () => {
    await request(app.getHttpServer()).get('/healthz').expect(200, { status: 'ok' });
    await request(app.getHttpServer()).get('/readyz').expect(200, { status: 'ready', checks: {} });
  });

  it('answers an unknown route with problem details carrying the request id it was given', async () => {
    const response = await request(app.getHttpServer()).get('/v1/nothing-here').set('X-Request-Id', 'trace-123').expect(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.body).toMatchObject({ status: 404, code: 'route_not_found', detail: 'No route for GET /v1/nothing-here.', requestId: 'trace-123' });
  });
});
