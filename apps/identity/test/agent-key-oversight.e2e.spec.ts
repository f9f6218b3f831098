import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { IssuedKeyDto } from '@stdreg/contracts';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// An agent's key (AGT-1) drafts; it does not take away what tells a partner's people what was done, nor the people
// themselves. Its organization's webhook endpoints (the events that report agents' work too) it may read and send
// to, not register, point elsewhere, disable, remove or re-key; mirror records it may create and change, not delete
// (by DELETE or by sync); its partner's app, whose deletion ends every sign-in of its users, it may not delete.
// Each refusal is a 403 with its domain code, before anything is read or written.

let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true' });
}, 60_000);
afterAll(() => identity?.close());

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => identity.dataSource.query(sql, params);

/** A partner's key and app with one person, an endpoint the partner registered, and an agent's key for that person bound to the app. */
async function partnerWithAgent() {
  const partner = await identity.newAppKey();
  const { registryId } = await identity.newRegistry(partner.secret);
  const person = (
    await request(identity.server)
      .post('/v1/users')
      .set(bearer(partner.secret))
      .send({
        registryId,
        externalId: 'p-1',
        email: `p-${randomBytes(4).toString('hex')}@example.com`,
        emailVerified: true,
        displayName: 'P',
        locale: 'en',
      })
      .expect(201)
  ).body;
  const endpoint = (
    await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(bearer(partner.secret))
      .send({ url: 'http://127.0.0.1:9/partner-hook', eventTypes: ['users.synced', 'app.deleted'] })
      .expect(201)
  ).body.endpoint;
  const agent: IssuedKeyDto = (
    await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({
        name: 'drafting agent',
        class: 'app',
        organizationId: partner.organizationId,
        agentSupervisorId: person.uid,
        allowedRegistryIds: [registryId],
      })
      .expect(201)
  ).body;
  return { partner, registryId, person, endpoint, agent };
}

const endpointsOf = (organizationId: string) =>
  query('SELECT * FROM webhook_endpoint WHERE organization_id = $1 ORDER BY id', [organizationId]);

describe("an agent's key and what tells people what agents did", () => {
  it("may not register, redirect, disable, remove or re-key its organization's webhook endpoints; it still reads them and sends a test", async () => {
    const { partner, endpoint, agent } = await partnerWithAgent();
    const before = await endpointsOf(partner.organizationId);
    const refusals = [
      request(identity.server)
        .post('/v1/webhook-endpoints')
        .send({ url: 'http://127.0.0.1:9/agent-hook', eventTypes: ['users.synced'] }),
      request(identity.server).patch(`/v1/webhook-endpoints/${endpoint.id}`).send({ url: 'http://127.0.0.1:9/agent-hook' }),
      request(identity.server).patch(`/v1/webhook-endpoints/${endpoint.id}`).send({ enabled: false }),
      request(identity.server)
        .patch(`/v1/webhook-endpoints/${endpoint.id}`)
        .send({ eventTypes: ['users.synced'] }),
      request(identity.server).post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).send({ overlapSeconds: 0 }),
      request(identity.server).delete(`/v1/webhook-endpoints/${endpoint.id}`),
    ];
    for (const refused of refusals) {
      const answer = await refused.set(bearer(agent.secret));
      expect({ status: answer.status, body: answer.body }).toMatchObject({
        status: 403,
        body: { code: 'forbidden', domainCode: 'webhooks.agent_key_refused' },
      });
      expect(answer.body.secret).toBeUndefined();
    }
    expect(await endpointsOf(partner.organizationId)).toEqual(before);
    const read = await request(identity.server).get(`/v1/webhook-endpoints/${endpoint.id}`).set(bearer(agent.secret)).expect(200);
    expect(read.body).toMatchObject({ url: 'http://127.0.0.1:9/partner-hook', enabled: true });
    await request(identity.server).get('/v1/webhook-endpoints').set(bearer(agent.secret)).expect(200);
    await request(identity.server).post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(bearer(agent.secret)).expect(202);
    // The partner's own key still manages its endpoint.
    await request(identity.server)
      .patch(`/v1/webhook-endpoints/${endpoint.id}`)
      .set(bearer(partner.secret))
      .send({ enabled: false })
      .expect(200);
  });

  it('may not delete a person, by DELETE or by a sync record; it still creates and changes them', async () => {
    const { registryId, person, agent } = await partnerWithAgent();
    const mirror = () => query('SELECT * FROM user_mirror WHERE registry_id = $1 ORDER BY id', [registryId]);
    const before = await mirror();
    const deleted = await request(identity.server).delete(`/v1/users/${person.id}`).set(bearer(agent.secret)).expect(403);
    expect(deleted.body).toMatchObject({ code: 'forbidden', domainCode: 'users.agent_key_refused' });
    const newcomer = { externalId: 'p-2', email: 'p2@example.com', emailVerified: false, displayName: 'Q', locale: 'en' };
    const synced = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(agent.secret))
      .send({ registryId, records: [newcomer, { ...newcomer, externalId: 'p-1', deleted: true }] })
      .expect(403);
    expect(synced.body).toMatchObject({ code: 'forbidden', domainCode: 'users.agent_key_refused' });
    expect(await mirror()).toEqual(before);
    expect(await query('SELECT 1 FROM unified_user WHERE uid = $1', [person.uid])).toHaveLength(1);
    // Drafting people stays an agent's: a sync without deletions, and a change.
    const applied = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(agent.secret))
      .send({ registryId, records: [newcomer] })
      .expect(200);
    expect(applied.body.counts).toMatchObject({ created: 1, deleted: 0 });
    await request(identity.server).patch(`/v1/users/${person.id}`).set(bearer(agent.secret)).send({ displayName: 'P. Person' }).expect(200);
  });

  it("may not delete its partner's app, which would end every sign-in of the app's users", async () => {
    const { partner, registryId, agent } = await partnerWithAgent();
    const refused = await request(identity.server).delete(`/v1/apps/${registryId}`).set(bearer(agent.secret)).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', domainCode: 'apps.agent_key_refused' });
    expect(await query('SELECT deleted_at FROM registered_app WHERE registry_id = $1', [registryId])).toEqual([{ deleted_at: null }]);
    await request(identity.server).get(`/v1/apps/${registryId}`).set(bearer(agent.secret)).expect(200);
    await request(identity.server).get(`/v1/apps/${registryId}`).set(bearer(partner.secret)).expect(200);
  });
});
