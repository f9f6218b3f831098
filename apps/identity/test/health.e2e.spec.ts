import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

describe('identity health', () => {
  let identity: RunningIdentity;

  beforeAll(async () => {
    identity = await startIdentity();
  });
  afterAll(() => identity.close());

  it('answers /healthz, and /readyz with its database and (when configured) Redis', async () => {
    await request(identity.server).get('/healthz').expect(200, { status: 'ok' });
    const expected = process.env['REDIS_URL'] ? { database: 'up', redis: 'up' } : { database: 'up' };
    await request(identity.server).get('/readyz').expect(200, { status: 'ready', checks: expected });
  });

  it('answers an unknown route with problem details carrying the request id it was given', async () => {
    const response = await request(identity.server).get('/v1/nothing-here').set('X-Request-Id', 'trace-123').expect(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.body).toMatchObject({
      status: 404,
      code: 'route_not_found',
      detail: 'No route for GET /v1/nothing-here.',
      requestId: 'trace-123',
    });
  });

  it('serves its OpenAPI 3.1 description', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.paths['/v1/keys']).toBeDefined();
  });
});
