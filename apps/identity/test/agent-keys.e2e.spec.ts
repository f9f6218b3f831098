// Agents' keys (AGT-1, issue 17): issued by an operator under a named supervisor, treated as an agent at
// the decision endpoint and at identity's own API, and recorded as the agent with that supervisor.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { IssuedKeyDto } from '@stdreg/contracts';
import { startIdentity, SERVICE_TOKEN, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
/** A registered app of its own organization, through which people are mirrored in. */
let partner: { key: string; registryId: string };
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);

beforeAll(async () => {
  identity = await startIdentity({ KEY_LEASE_MS: '0' });
  partner = await identity.newRegistry();
});
afterAll(() => identity.close());

/** A person, as a partner's mirror record makes one: the mirror record's id and the unified user's uid. */
async function newPerson(): Promise<{ mirrorId: string; uid: string }> {
  const { body } = await request(identity.server)
    .post('/v1/users')
    .set(bearer(partner.key))
    .send({
      registryId: partner.registryId,
      externalId: `x-${randomBytes(4).toString('hex')}`,
      email: `p-${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: true,
      displayName: 'Supervisor',
      locale: 'en',
    })
    .expect(201);
  return { mirrorId: body.id, uid: body.uid };
}

async function newOrganization(): Promise<string> {
  const { body } = await request(identity.server).post('/v1/organizations').set(platform()).send({ name: 'Agents Org' }).expect(201);
  return body.id;
}

async function issueAgentKey(organizationId: string, supervisorUid: string, allowedRegistryIds?: string[]): Promise<IssuedKeyDto> {
  const { body } = await request(identity.server)
    .post('/v1/keys')
    .set(platform())
    .send({
      name: 'drafting agent',
      class: 'app',
      organizationId,
      agentSupervisorId: supervisorUid,
      ...(allowedRegistryIds ? { allowedRegistryIds } : {}),
    })
    .expect(201);
  return body;
}

const decide = (key: string, action: string, organizationId: string) =>
  request(identity.server)
    .post('/v1/decisions')
    .set(bearer(SERVICE_TOKEN))
    .send({ credential: { kind: 'api_key', value: key }, action, resource: { organizationId } })
    .expect(200);

async function auditOf(actor: string): Promise<{ actorKind: string; action: string; outcome: string; detail: Record<string, unknown> }[]> {
  const { body } = await request(identity.server).get('/v1/audit').query({ actor, limit: 100 }).set(platform()).expect(200);
  return body.items;
}

const keyCount = async (): Promise<number> => (await identity.dataSource.query('SELECT count(*)::int AS n FROM api_key'))[0].n;

describe("an agent's key", () => {
  it('is issued by an operator under a named supervisor, which its DTO shows; other keys show no agent', async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    const issued = await issueAgentKey(organizationId, supervisor.uid);
    expect(issued.key).toMatchObject({ class: 'app', organizationId, agent: { supervisorId: supervisor.uid } });
    const read = await request(identity.server).get(`/v1/keys/${issued.key.id}`).set(platform()).expect(200);
    expect(read.body.agent).toEqual({ supervisorId: supervisor.uid });
    const ordinary = await identity.newAppKey();
    expect(ordinary.key.agent).toBeNull();
    const created = (await auditOf(identity.platformKey.split('_')[2]!)).find(
      (entry) => entry.action === 'keys.create' && entry.detail['prefix'] === issued.key.prefix,
    );
    expect(created?.detail).toMatchObject({ class: 'app', agentSupervisorId: supervisor.uid });
  });

  it('is refused, with nothing created, for an unknown or merged supervisor or as a platform key', async () => {
    const organizationId = await newOrganization();
    const survivor = await newPerson();
    const merged = await newPerson();
    await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform())
      .send({ survivorUid: survivor.uid, mergedUid: merged.uid })
      .expect(201);
    const before = await keyCount();
    const create = (body: Record<string, unknown>) =>
      request(identity.server)
        .post('/v1/keys')
        .set(platform())
        .send({ name: 'agent', class: 'app', organizationId, ...body });

    const unknown = await create({ agentSupervisorId: '01900000-0000-7000-8000-000000000000' }).expect(422);
    expect(unknown.body).toMatchObject({ domainCode: 'keys.supervisor_unknown', errors: [{ field: 'agentSupervisorId' }] });
    const mergedAway = await create({ agentSupervisorId: merged.uid }).expect(422);
    expect(mergedAway.body).toMatchObject({ domainCode: 'keys.supervisor_unknown' });
    expect(mergedAway.body.detail).toContain(survivor.uid);
    const asPlatform = await create({ class: 'platform', agentSupervisorId: survivor.uid }).expect(400);
    expect(asPlatform.body).toMatchObject({ domainCode: 'keys.agent_key_not_app', errors: [{ field: 'class' }] });
    const notAUid = await create({ agentSupervisorId: 'someone' }).expect(400);
    expect(notAUid.body.errors[0].field).toBe('agentSupervisorId');
    expect(await keyCount()).toBe(before);
  });

  it('drafts in its organization only, and every formal action is denied agent_delegated, audited as the agent with its supervisor', async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    // The person could post settlements: the agent acting under them still may not.
    await request(identity.server)
      .post('/v1/role-bindings')
      .set(platform())
      .send({ uid: supervisor.uid, role: 'settlement-approver', organizationId })
      .expect(201);
    const agent = await issueAgentKey(organizationId, supervisor.uid);

    const draft = await decide(agent.secret, 'split-project:draft', organizationId);
    expect(draft.body).toMatchObject({
      decision: 'allow',
      subject: { kind: 'agent', id: agent.key.id, keyPrefix: agent.key.prefix, organizationId, supervisorId: supervisor.uid },
    });
    const elsewhere = await decide(agent.secret, 'split-project:draft', await newOrganization());
    expect(elsewhere.body).toMatchObject({ decision: 'deny', reason: 'organization_mismatch' });

    const formal = ['split-project:activate', 'rule-version:create', 'settlement-run:post'];
    for (const action of formal) {
      const denied = await decide(agent.secret, action, organizationId);
      expect({ action, ...denied.body }).toMatchObject({
        action,
        decision: 'deny',
        reason: 'agent_delegated',
        subject: { kind: 'agent', supervisorId: supervisor.uid },
      });
    }
    const recorded = (await auditOf(agent.key.prefix)).filter((entry) => entry.action.startsWith('decision:'));
    expect(recorded).toEqual(
      formal.map((action) =>
        expect.objectContaining({
          actorKind: 'agent',
          action: `decision:${action}`,
          outcome: 'denied',
          detail: expect.objectContaining({ reason: 'agent_delegated', supervisor: supervisor.uid, service: 'standards-api' }),
        }),
      ),
    );
  });

  it("may not grant or revoke roles, merge people or read the audit log, even under a supervisor who holds an approver's role", async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    const approver = await request(identity.server)
      .post('/v1/role-bindings')
      .set(platform())
      .send({ uid: supervisor.uid, role: 'settlement-approver', organizationId })
      .expect(201);
    const agent = await issueAgentKey(organizationId, supervisor.uid);
    const other = await newPerson();
    const asAgent = bearer(agent.secret);
    const refusals = [
      await request(identity.server)
        .post('/v1/role-bindings')
        .set(asAgent)
        .send({ uid: other.uid, role: 'settlement-approver', organizationId }),
      await request(identity.server).post('/v1/role-bindings').set(asAgent).send({ uid: supervisor.uid, role: 'platform-operator' }),
      await request(identity.server).delete(`/v1/role-bindings/${approver.body.id}`).set(asAgent),
      await request(identity.server)
        .post('/v1/unified-users/merge')
        .set(asAgent)
        .send({ survivorUid: supervisor.uid, mergedUid: other.uid }),
      await request(identity.server).get('/v1/audit').set(asAgent),
    ];
    expect(refusals.map((response) => [response.status, response.body.code])).toEqual(Array.from({ length: 5 }, () => [403, 'forbidden']));
    const roles = await identity.dataSource.query('SELECT uid, role FROM role_binding WHERE uid = ANY($1::uuid[]) ORDER BY role', [
      [supervisor.uid, other.uid],
    ]);
    expect(roles).toEqual([{ uid: supervisor.uid, role: 'settlement-approver' }]);
    expect(await identity.dataSource.query('SELECT merged_into FROM unified_user WHERE uid = $1', [other.uid])).toEqual([
      { merged_into: null },
    ]);
  });

  it('is recorded as the agent, with its supervisor, when refused once revoked', async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    const agent = await issueAgentKey(organizationId, supervisor.uid);
    await request(identity.server).post(`/v1/keys/${agent.key.id}/revoke`).set(platform()).expect(200);
    const refused = await decide(agent.secret, 'settlement-run:post', organizationId);
    expect(refused.body).toMatchObject({ decision: 'deny', reason: 'invalid_credential', subject: null });
    expect(await auditOf(agent.key.prefix)).toEqual([
      expect.objectContaining({
        actorKind: 'agent',
        action: 'decision:settlement-run:post',
        outcome: 'denied',
        detail: expect.objectContaining({ reason: 'invalid_credential', supervisor: supervisor.uid }),
      }),
    ]);
  });

  it("records what it does at identity's own API as the agent, with its supervisor", async () => {
    const partnerKey = await identity.newAppKey();
    const { registryId } = await identity.newRegistry(partnerKey.secret);
    const supervisor = await newPerson();
    const agent = await issueAgentKey(partnerKey.organizationId, supervisor.uid, [registryId]);
    await request(identity.server)
      .post('/v1/users')
      .set(bearer(agent.secret))
      .send({
        registryId,
        externalId: 'mirrored-by-agent',
        email: 'mirrored@example.com',
        emailVerified: false,
        displayName: 'M',
        locale: 'en',
      })
      .expect(201);
    await request(identity.server).get('/v1/users').query({ registryId }).set(bearer(agent.secret)).expect(200);
    const entries = await auditOf(agent.key.prefix);
    expect(entries.map(({ actorKind, action, detail }) => ({ actorKind, action, supervisor: detail['supervisor'] }))).toEqual([
      { actorKind: 'agent', action: 'key.use', supervisor: supervisor.uid },
      { actorKind: 'agent', action: 'users.create', supervisor: supervisor.uid },
      { actorKind: 'agent', action: 'key.use', supervisor: supervisor.uid },
    ]);
  });

  it('follows a merge of its supervisor to the survivor, and back on unmerge', async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    const survivor = await newPerson();
    const agent = await issueAgentKey(organizationId, supervisor.uid);
    const merge = await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform())
      .send({ survivorUid: survivor.uid, mergedUid: supervisor.uid })
      .expect(201);
    expect((await request(identity.server).get(`/v1/keys/${agent.key.id}`).set(platform()).expect(200)).body.agent).toEqual({
      supervisorId: survivor.uid,
    });
    expect((await decide(agent.secret, 'split-project:draft', organizationId)).body.subject.supervisorId).toBe(survivor.uid);
    await request(identity.server).post(`/v1/merges/${merge.body.id}/unmerge`).set(platform()).expect(200);
    expect((await decide(agent.secret, 'split-project:draft', organizationId)).body.subject.supervisorId).toBe(supervisor.uid);
  });

  it('keeps its supervisor when their last mirror record is deleted', async () => {
    const organizationId = await newOrganization();
    const supervisor = await newPerson();
    const agent = await issueAgentKey(organizationId, supervisor.uid);
    await request(identity.server).delete(`/v1/users/${supervisor.mirrorId}`).set(bearer(partner.key)).expect(204);
    expect((await decide(agent.secret, 'split-project:draft', organizationId)).body.subject.supervisorId).toBe(supervisor.uid);
  });
});
