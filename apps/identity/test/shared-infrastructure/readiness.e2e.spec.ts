// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs).
import request from 'supertest';
import { CuttableProxy } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from '../support/identity-app';

async function readiness(identity: RunningIdentity): Promise<{ status: number; checks: Record<string, string> }> {
  const response = await request(identity.server).get('/readyz');
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

describe('identity readiness follows Redis', () => {
  let redis: CuttableProxy;
  let identity: RunningIdentity;

  beforeAll(async () => {
    redis = await CuttableProxy.start(process.env['REDIS_URL']!);
    identity = await startIdentity({ REDIS_URL: redis.through(process.env['REDIS_URL']!) });
  }, 120_000);
  afterAll(async () => {
    await identity.close();
    await redis.close();
  });

  it('is not ready while Redis is away, refuses rate-limited calls with 503, and recovers when Redis returns', async () => {
    expect(await readiness(identity)).toEqual({ status: 200, checks: { database: 'up', redis: 'up' } });

    await redis.cut();
    expect(
      await eventually(
        () => readiness(identity),
        (r) => r.status === 503,
      ),
    ).toEqual({ status: 503, checks: { database: 'up', redis: 'down' } });
    await request(identity.server).get('/v1/keys').set('Authorization', `Bearer ${identity.platformKey}`).expect(503);

    await redis.restore();
    expect(
      await eventually(
        () => readiness(identity),
        (r) => r.status === 200,
      ),
    ).toEqual({ status: 200, checks: { database: 'up', redis: 'up' } });
    await request(identity.server).get('/v1/keys').set('Authorization', `Bearer ${identity.platformKey}`).expect(200);
  });
});
