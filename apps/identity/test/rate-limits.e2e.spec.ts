import { createServer } from 'node:net';
import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const LIMITS = {
  RATE_LIMIT_APP_BURST: '6',
  RATE_LIMIT_APP_PER_MINUTE: '60',
  RATE_LIMIT_APP_WRITES_PER_MINUTE: '2',
  RATE_LIMIT_PLATFORM_BURST: '1000',
  RATE_LIMIT_PLATFORM_PER_MINUTE: '6000',
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

  it('takes DELETE from the same write bucket as POST, one bucket per key', async () => {
    const partner = await identity.newAppKey({ maxApps: 10 });
    const other = await identity.newAppKey({ maxApps: 10 });
    const remove = (secret: string) => request(identity.server).delete('/v1/apps/reg_00000000000000000000').set(bearer(secret));
    const first = await remove(partner.secret).expect(404);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['2', '1']);
    await remove(partner.secret).expect(404);
    const refused = await remove(partner.secret).expect(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
    const app = { name: 'A', type: 'Traditional', redirectUris: ['https://a.example/cb'] };
    await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(app).expect(429);
    // Another key of the platform has its own write bucket.
    const others = await remove(other.secret).expect(404);
    expect([others.headers['x-ratelimit-limit'], others.headers['x-ratelimit-remaining']]).toEqual(['2', '1']);
  });

  it('takes no token from the key bucket for a write the write bucket refuses', async () => {
    const partner = await identity.newAppKey();
    const remove = () => request(identity.server).delete('/v1/apps/reg_00000000000000000000').set(bearer(partner.secret));
    await remove().expect(404);
    await remove().expect(404);
    for (let i = 0; i < 3; i++) await remove().expect(429);
    // Burst 6: two writes taken, the three refused took nothing, this read takes the third.
    const read = await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    expect(read.headers['x-ratelimit-limit']).toBe('6');
    // (more only if the test took over a second: the key bucket refills one a second)
    expect(Number(read.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(3);
  });

  it('gives platform keys their own burst and sustained rate, not the app limits', async () => {
    const platform = () => request(identity.server).get('/v1/organizations').set(bearer(identity.platformKey)).expect(200);
    const first = await platform();
    expect(first.headers['x-ratelimit-limit']).toBe('1000');
    const before = Number(first.headers['x-ratelimit-remaining']);
    // 6000 a minute is 100 a second: 200 ms gives back far more than the one token the next request takes.
    await sleep(200);
    const after = Number((await platform()).headers['x-ratelimit-remaining']);
    expect(after).toBeGreaterThanOrEqual(before);
  });

  it('counts a refusal under bucket="key" in /metrics, never naming the key', async () => {
    const series = 'rate_limit_rejections_total{bucket="key"}';
    const counted = async () => {
      const { text } = await request(identity.server).get('/metrics').expect(200);
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return { text, value: line ? Number(line.slice(series.length + 1)) : 0 };
    };
    const before = (await counted()).value;
    const partner = await identity.newAppKey();
    for (let i = 0; i < 6; i++) await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    await request(identity.server).get('/v1/apps').set(bearer(partner.secret)).expect(429);
    const { text, value } = await counted();
    expect(value).toBe(before + 1);
    expect(text).not.toContain(partner.key.id);
    expect(text).not.toContain(identity.redisPrefix);
    expect(text).not.toContain(partner.secret);
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
    const started = Date.now();
    const ready = await request(identity.server).get('/readyz').expect(503);
    // At once: not held in a queue for the connection to come back (the store's command timeout is 1 s).
    expect(Date.now() - started).toBeLessThan(900);
    expect(ready.body.checks).toEqual({ database: 'up', redis: 'down' });
  });

  it('answers a sign-in started meanwhile with a page saying sign-in is unavailable, not that the network tried too often', async () => {
    const started = await request(identity.server).get('/oidc/auth').query({ client_id: 'any', ui_locales: 'en' }).expect(503);
    expect(started.headers['content-type']).toMatch(/^text\/html/);
    expect(started.headers['retry-after']).toBe('1');
    expect(started.text).toContain('Signing in is not available at the moment');
    expect(started.text).not.toContain('Too many sign-in attempts');
  });
});
