// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas
// cannot share an embedded database or an in-process bucket.
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { CuttableProxy } from '@stdreg/server-kit/testing';
import { SERVICE_TOKEN, startIdentity, startReplica, type RunningIdentity } from '../support/identity-app';
import { createUserWithPassword } from '../support/signin-fixture';
import { startSigninScene, type SigninScene } from '../support/signin-scene';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
// A lease long enough that a decision relying on a stale one could not be missed. The App bucket keeps its
// default burst and refills one token a minute, the write bucket holds 4 and refills one in 15 s: 200
// concurrent requests are answered long before a refill could admit one more than the burst.
const APP_BURST = 120;
const WRITES = 4;
const CONCURRENT = 200;
const LIMITS = {
  RATE_LIMIT_APP_BURST: String(APP_BURST),
  RATE_LIMIT_APP_PER_MINUTE: '1',
  RATE_LIMIT_APP_WRITES_PER_MINUTE: String(WRITES),
  KEY_LEASE_MS: '3000',
};
const count = (statuses: number[], wanted: number) => statuses.filter((status) => status === wanted).length;

async function eventuallyReady(server: Server): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt++) {
    if ((await request(server).get('/readyz')).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await request(server).get('/readyz').expect(200);
}

describe('two identity replicas sharing PostgreSQL and Redis', () => {
  let redis: CuttableProxy;
  let identity: RunningIdentity;
  let replica: NestExpressApplication;
  let servers: Server[];

  beforeAll(async () => {
    redis = await CuttableProxy.start(process.env['REDIS_URL']!);
    const redisUrl = redis.through(process.env['REDIS_URL']!);
    identity = await startIdentity({ ...LIMITS, REDIS_URL: redisUrl });
    replica = await startReplica(identity, { ...LIMITS, REDIS_URL: redisUrl });
    servers = [identity.server, replica.getHttpServer() as Server];
  });
  afterAll(async () => {
    await replica.close();
    await identity.close();
    await redis.close();
  });

  /** `CONCURRENT` requests at once, alternating between the two instances. */
  const concurrently = (send: (server: Server) => request.Test) =>
    Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(servers[i % 2]!).then((response) => response.status)));
  const registerApp = (server: Server, secret: string) =>
    request(server)
      .post('/v1/apps')
      .set(bearer(secret))
      .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/callback'] });
  const appsRegisteredBy = async (keyId: string) =>
    (await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [keyId]))[0].n as number;

  it('shares one bucket between two instances: of 200 concurrent requests with one App key, exactly the burst gets through', async () => {
    const partner = await identity.newAppKey();
    const statuses = await concurrently((server) => request(server).get('/v1/apps').set(bearer(partner.secret)));
    expect(count(statuses, 200)).toBe(APP_BURST);
    expect(count(statuses, 429)).toBe(CONCURRENT - APP_BURST);
  });

  it('shares the write bucket between two instances: of 200 concurrent writes with one App key, exactly its burst is written', async () => {
    const partner = await identity.newAppKey({ maxApps: 50 });
    const statuses = await concurrently((server) => registerApp(server, partner.secret));
    expect(count(statuses, 201)).toBe(WRITES);
    expect(count(statuses, 429)).toBe(CONCURRENT - WRITES);
    expect(await appsRegisteredBy(partner.key.id)).toBe(WRITES);
  });

  it('refuses every limited call at both instances with 503 while Redis is away, lets none through, and recovers', async () => {
    const partner = await identity.newAppKey({ maxApps: 50 });
    await redis.cut();
    const reads = await concurrently((server) => request(server).get('/v1/apps').set(bearer(partner.secret)));
    const writes = await concurrently((server) => registerApp(server, partner.secret));
    const platformReads = await concurrently((server) => request(server).get('/v1/keys').set(bearer(identity.platformKey)));
    expect([count(reads, 503), count(writes, 503), count(platformReads, 503)]).toEqual([CONCURRENT, CONCURRENT, CONCURRENT]);
    expect(await appsRegisteredBy(partner.key.id)).toBe(0);
    for (const server of servers) await request(server).get('/readyz').expect(503);

    await redis.restore();
    for (const server of servers) await eventuallyReady(server);
    for (const server of servers) await registerApp(server, partner.secret).expect(201);
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

  describe('the decision endpoint, which relies on short leases on access-token subjects', () => {
    const SUBJECT_LEASE = { TOKEN_SUBJECT_LEASE_MS: '3000' };
    let scene: SigninScene;
    let tokenReplica: NestExpressApplication;

    beforeAll(async () => {
      scene = await startSigninScene(SUBJECT_LEASE);
      tokenReplica = await startReplica(scene.identity, { ...scene.identity.signinEnv, ...SUBJECT_LEASE });
    });
    afterAll(async () => {
      await tokenReplica?.close();
      await scene?.close();
    });

    const decideToken = (server: Server, token: string) =>
      request(server)
        .post('/v1/decisions')
        .set(bearer(SERVICE_TOKEN))
        .send({
          credential: { kind: 'access_token', value: token },
          action: 'split-project:activate',
          resource: { organizationId: scene.app.organizationId },
        })
        .expect(200)
        .then((response) => response.body.decision as string);

    /** A person of the scene's partner, signed in through its app, holding a role that allows activation. */
    async function signedInApprover(): Promise<{ token: string; bindingId: string }> {
      const user = await createUserWithPassword(scene.identity, scene.app);
      const binding = await request(scene.identity.server)
        .post('/v1/role-bindings')
        .set(bearer(scene.identity.platformKey))
        .send({ uid: user.uid, role: 'settlement-approver', organizationId: scene.app.organizationId })
        .expect(201);
      const config = await scene.flow.relyingParty(scene.app);
      const authorization = await scene.flow.authorizationUrl(config);
      const tokens = await scene.flow.tokens(config, authorization, await scene.flow.signIn(authorization, user.email));
      return { token: tokens.access_token, bindingId: binding.body.id as string };
    }

    it("answers from its lease without reading the subject again: a role taken behind the API's back waits for the lease", async () => {
      const { token, bindingId } = await signedInApprover();
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('allow');
      await scene.identity.dataSource.query('DELETE FROM role_binding WHERE id = $1', [bindingId]);
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('allow');
      expect(await decideToken(scene.identity.server, token)).toBe('deny');
    });

    it('denies a token on every instance as soon as taking its role through the other instance has answered', async () => {
      const { token, bindingId } = await signedInApprover();
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('allow');
      await request(scene.identity.server).delete(`/v1/role-bindings/${bindingId}`).set(bearer(scene.identity.platformKey)).expect(204);
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('deny');
    });

    it('denies a token on every instance as soon as its revocation through the other instance has answered', async () => {
      const { token } = await signedInApprover();
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('allow');
      await request(scene.identity.server)
        .post('/oidc/token/revocation')
        .auth(scene.app.clientId, scene.app.clientSecret)
        .type('form')
        .send({ token, token_type_hint: 'access_token' })
        .expect(200);
      expect(await decideToken(tokenReplica.getHttpServer(), token)).toBe('deny');
    });
  });
});
