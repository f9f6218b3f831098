// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas
// cannot share an embedded database or an in-process bucket.
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { IdentityConfig } from '../../src/config/identity.config';
import { IDENTITY } from '../../src/identity.service';
import { startIdentity, type RunningIdentity } from '../support/identity-app';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const LIMITS = { RATE_LIMIT_APP_BURST: '6', RATE_LIMIT_APP_PER_MINUTE: '60' };

describe('two identity replicas sharing PostgreSQL and Redis', () => {
  let identity: RunningIdentity;
  let replica: NestExpressApplication;

  beforeAll(async () => {
    identity = await startIdentity(LIMITS);
    const config = loadConfig(IdentityConfig, {
      LOG_LEVEL: 'error', BOOTSTRAP_PLATFORM_KEY: 'off', REDIS_URL: process.env['REDIS_URL']!, REDIS_KEY_PREFIX: identity.redisPrefix,
      ...identity.database.env, ...LIMITS,
    });
    replica = await createServiceApp(IDENTITY, config);
    await replica.init();
  });
  afterAll(async () => {
    await replica.close();
    await identity.close();
  });

  it('shares one bucket between two instances: exactly the burst gets through in total', async () => {
    const partner = await identity.newAppKey();
    const servers = [identity.server, replica.getHttpServer() as Server];
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => request(servers[i % 2]!).get('/v1/apps').set(bearer(partner.secret))),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(6);
  });

  it('sees a revocation made through the other instance at once', async () => {
    const partner = await identity.newAppKey();
    await request(replica.getHttpServer()).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(bearer(identity.platformKey)).expect(200);
    await request(replica.getHttpServer()).get('/v1/apps').set(bearer(partner.secret)).expect(401);
  });
});
