// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas
// cannot share an embedded database.
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { startIdentity, startReplica, type RunningIdentity } from '../support/identity-app';

const EVENTS = 60;
const DISPATCH = { WEBHOOK_DISPATCHER: 'on', WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_INTERVAL_MS: '20' };

describe('two identity replicas, each with its dispatcher, sharing PostgreSQL', () => {
  let identity: RunningIdentity;
  let replica: NestExpressApplication;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    identity = await startIdentity(DISPATCH);
    replica = await startReplica(identity, DISPATCH);
  });
  afterAll(async () => {
    await replica.close();
    await identity.close();
    await receiver.close();
  });

  it('delivers every event, and counts how many were sent twice', async () => {
    const platform = { Authorization: `Bearer ${identity.platformKey}` };
    const organization = await request(identity.server).post('/v1/organizations').set(platform).send({ name: 'Replicas' }).expect(201);
    const created = await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(platform)
      .send({ url: receiver.url('/replicas'), eventTypes: ['role.granted'], organizationId: organization.body.id })
      .expect(201);
    receiver.expect('/replicas', created.body.secret);
    receiver.delay('/replicas', 20);
    const app = await request(identity.server)
      .post('/v1/apps')
      .set(platform)
      .send({ name: 'Replicas', type: 'Traditional', redirectUris: ['https://replicas.example/cb'] })
      .expect(201);
    const synced = await request(identity.server)
      .post('/v1/sync')
      .set(platform)
      .send({
        registryId: app.body.app.registryId,
        records: Array.from({ length: EVENTS }, (_, i) => ({
          externalId: `r${i}`,
          email: `r${i}@replicas.example`,
          emailVerified: false,
          displayName: `R${i}`,
          locale: 'en',
        })),
      })
      .expect(200);
    for (const [index, result] of (synced.body.results as { uid: string }[]).entries()) {
      await request(index % 2 === 0 ? identity.server : replica.getHttpServer())
        .post('/v1/role-bindings')
        .set(platform)
        .send({ uid: result.uid, role: 'investor', organizationId: organization.body.id })
        .expect(201);
    }
    for (const deadline = Date.now() + 60_000; new Set(receiver.at('/replicas').map((entry) => entry.event.id)).size < EVENTS;) {
      if (Date.now() > deadline) throw new Error('not every event arrived');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const requests = receiver.at('/replicas');
    const deliveries = new Set(requests.map((entry) => entry.webhookId));
    const duplicates = requests.length - deliveries.size;
    console.info(`two replicas: ${EVENTS} events, ${requests.length} requests, ${duplicates} duplicates`);
    expect(deliveries.size).toBe(EVENTS);
    // Live dispatchers hold a lease longer than a request may take: none sends what another is sending.
    expect(duplicates).toBe(0);
    expect(receiver.unverified).toEqual([]);
  });
});
