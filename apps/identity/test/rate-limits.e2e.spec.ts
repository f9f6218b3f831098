import { createServer } from 'node:net';
import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const LIMITS = {
  RATE_LIMIT_APP_BURST: '6',
  RATE_LIMIT_APP_PER_MINUTE: '60',
  RATE_LIMIT_APP_WRITES_PER_MINUTE: '2',
  RATE_LIMIT_PLATFORM_BURST: '1000',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('per-key rate limits', () => {
  let identity: RunningIdentity;

  beforeAll(async () => {
    identity = await startIdentity(LIMITS);
  });
  afterAll(() => identity.close());

  it('puts X-RateLimit-Limit and X-RateLimit-Remaining on every keyed response', async () => {
    const partner = await identity.newAppKey();
    const first = await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('6');
    expect(first.headers['x-ratelimit-remaining']).toBe('5');
    const second = await request(identity.server).get('/v1/apps/reg_00000000000000000000').set(bearer(partner.secret)).expect(404);
    expect(second.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('allows the burst, refuses with 429, Retry-After and a problem body, then refills at the sustained rate', async () => {
    const partner = await identity.newAppKey();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await request(identity.server).get('/v1/apps').set(bearer(partner.secret))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const refused = await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    await sleep(1100);
    await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(429);
  });

  it('has a separate, smaller bucket for POST and DELETE of app keys', async () => {
    const partner = await identity.newAppKey({ maxApps: 10 });
    const app = { name: 'A', type: 'Traditional', redirectUris: ['https://a.example/cb'] };
    await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(app).expect(201);
    const second = await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(app).expect(201);
    expect(second.headers['x-ratelimit-limit']).toBe('2');
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(app).expect(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
    await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    const stored = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(stored[0].n).toBe(2);
  });

  it('is exact under concurrency: of 40 simultaneous requests, exactly the burst gets through', async () => {
    const partner = await identity.newAppKey();
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => request(identity.server).get('/v1/apps').set(bearer(partner.secret))),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(6);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(34);
  });
});

describe('when Redis is unreachable', () => {
  let identity: RunningIdentity;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    identity = await startIdentity({ REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(() => identity.close());

  it('answers keyed requests with 503, never unlimited, and reports not ready', async () => {
    const response = await request(identity.server).get('/v1/organizations').set(bearer(identity.platformKey)).expect(503);
    expect(response.body.code).toBe('service_unavailable');
    const ready = await request(identity.server).get('/readyz').expect(503);
    expect(ready.body.checks).toEqual({ database: 'up', redis: 'down' });
  });
});
