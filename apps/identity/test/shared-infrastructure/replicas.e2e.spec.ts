// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas
// cannot share an embedded database or an in-process bucket.
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { SERVICE_TOKEN, startIdentity, startReplica, type RunningIdentity } from '../support/identity-app';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
// A lease long enough that a decision relying on a stale one could not be missed.
const LIMITS = { RATE_LIMIT_APP_BURST: '6', RATE_LIMIT_APP_PER_MINUTE: '60', KEY_LEASE_MS: '3000' };

describe('two identity replicas sharing PostgreSQL and Redis', () => {
  let identity: RunningIdentity;
  let replica: NestExpressApplication;

  beforeAll(async () => {
    identity = await startIdentity(LIMITS);
    replica = await startReplica(identity, LIMITS);
  });
  afterAll(async () => {
    await replica.close();
    await identity.close();
  });

  it('shares one bucket between two instances: exactly the burst gets through in total', async () => {
    const partner = await identity.newAppKey();
    const servers = [identity.server, replica.getHttpServer() as Server];
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(servers[i % 2]!)
          .get('/v1/apps')
          .set(bearer(partner.secret)),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(6);
  });

  it('sees a revocation made through the other instance at once', async () => {
    const partner = await identity.newAppKey();
    await request(replica.getHttpServer()).get('/v1/apps').set(bearer(partner.secret)).expect(200);
    await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(bearer(identity.platformKey)).expect(200);
    await request(replica.getHttpServer()).get('/v1/apps').set(bearer(partner.secret)).expect(401);
  });

  describe('the decision endpoint, which relies on short leases on keys', () => {
    const decide = (server: Server, key: string, organizationId: string) =>
      request(server)
        .post('/v1/decisions')
        .set(bearer(SERVICE_TOKEN))
        .send({ credential: { kind: 'api_key', value: key }, action: 'split-project:read', resource: { organizationId } })
        .expect(200)
        .then((response) => response.body.decision as string);

    it("answers from its lease without reading the key again: a change behind the API's back waits for the lease", async () => {
      const partner = await identity.newAppKey();
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('allow');
      await identity.dataSource.query('UPDATE api_key SET revoked_at = now() WHERE id = $1', [partner.key.id]);
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('allow');
      expect(await decide(identity.server, partner.secret, partner.organizationId)).toBe('deny');
    });

    it('denies a key on every instance as soon as its revocation through the other instance has answered', async () => {
      const partner = await identity.newAppKey();
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('allow');
      await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(bearer(identity.platformKey)).expect(200);
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('deny');
    });

    it('denies a rotated-out secret on every instance as soon as a rotation without grace has answered', async () => {
      const partner = await identity.newAppKey();
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('allow');
      const rotated = await request(identity.server)
        .post(`/v1/keys/${partner.key.id}/rotate`)
        .set(bearer(identity.platformKey))
        .send({ gracePeriodSeconds: 0 })
        .expect(200);
      expect(await decide(replica.getHttpServer(), partner.secret, partner.organizationId)).toBe('deny');
      expect(await decide(replica.getHttpServer(), rotated.body.secret, partner.organizationId)).toBe('allow');
    });
  });
});
