import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// A draft (a project no rule version was made of) can be discarded: marked, never deleted. It then frees its place
// under the drafts' bound and is gone from the organization (not listed, not found with its scenarios, no further
// writes); the write audit and a partner event say who discarded it. A person may discard any draft of the
// organization, an agent or a key only one it created; an activated project is never discarded.

const identity = new FakeIdentity();
let api: RunningStandardsApi;

const as = (credential: string, org: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${credential}`,
  'X-Organization-Id': org,
  ...extra,
});
const agentKey = (name: string, org: string) => as(`stdreg_agent_${name}_of:${org}`, org);
const member = (org: string) => as(`member-of:${org}`, org);
const approver = (org: string) => as(`approver-of:${org}`, org);
const create = async (headers: Record<string, string>, name: string) =>
  (
    await request(api.server)
      .post('/api/v2/split-projects')
      .set(headers)
      .send({ name, currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201)
  ).body as { project: { id: string }; scenario: { id: string } };
const discard = (headers: Record<string, string>, id: string) => request(api.server).delete(`/api/v2/split-projects/${id}`).set(headers);
const activate = (headers: Record<string, string>, id: string, body: Record<string, unknown>) =>
  request(api.server).post(`/api/v2/split-projects/${id}/activate`).set(headers).send(body);
const sql = (text: string, parameters: unknown[] = []) => api.dataSource.query(text, parameters);
const discardedAt = async (id: string) => (await sql('SELECT discarded_at FROM split_project WHERE id = $1', [id]))[0].discarded_at;

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
    SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '3',
  });
});
afterAll(async () => {
  await api?.close();
  await identity.stop();
});

describe('discarding a draft split project', () => {
  it('frees a place under the drafts’ bound, and the project is gone: not listed, not found with its scenarios, not written to', async () => {
    const org = randomUUID();
    const agent = agentKey('loop', org);
    const drafts = [await create(agent, 'Loop 1'), await create(agent, 'Loop 2'), await create(agent, 'Loop 3')];
    const full = await request(api.server)
      .post('/api/v2/split-projects')
      .set(agent)
      .send({ name: 'Loop 4', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(409);
    expect(full.body.domainCode).toBe('split_projects.draft_limit_reached');

    const { project, scenario } = drafts[1]!;
    const discarded = await discard(agent, project.id).expect(200);
    expect(discarded.body).toMatchObject({
      id: project.id,
      organizationId: org,
      name: 'Loop 2',
      discardedBy: 'agent:key-agent-loop supervised by human:supervisor-loop',
    });
    expect(Date.parse(discarded.body.discardedAt)).not.toBeNaN();

    const listed = await request(api.server).get('/api/v2/split-projects').set(member(org)).expect(200);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([drafts[0]!.project.id, drafts[2]!.project.id]);
    const notFound = async (test: request.Test, domainCode: string) => expect((await test.expect(404)).body.domainCode).toBe(domainCode);
    const server = request(api.server);
    await notFound(server.get(`/api/v2/split-projects/${project.id}`).set(member(org)), 'split_projects.not_found');
    await notFound(server.get(`/api/v2/split-projects/${project.id}/scenarios`).set(member(org)), 'split_projects.not_found');
    await notFound(server.get(`/api/v2/split-projects/${project.id}/rule-versions`).set(member(org)), 'split_projects.not_found');
    await notFound(server.get(`/api/v2/operating-scenarios/${scenario.id}`).set(member(org)), 'scenarios.not_found');
    // Not 304: a precondition is evaluated only for a target that exists (RFC 9110 section 13.2.1), and * matches any.
    for (const ifNoneMatch of ['*', `"${scenario.id}.1"`, `W/"${scenario.id}.1"`]) {
      await notFound(
        server.get(`/api/v2/operating-scenarios/${scenario.id}`).set(member(org)).set('If-None-Match', ifNoneMatch),
        'scenarios.not_found',
      );
    }
    await notFound(server.get(`/api/v2/operating-scenarios/${scenario.id}/revisions`).set(member(org)), 'scenarios.not_found');
    await notFound(
      server.patch(`/api/v2/operating-scenarios/${scenario.id}`).set(member(org)).send({ name: 'Changed' }),
      'scenarios.not_found',
    );
    await notFound(
      server.post(`/api/v2/split-projects/${project.id}/scenarios`).set(member(org)).send({ fromScenarioId: scenario.id, name: 'Branch' }),
      'split_projects.not_found',
    );
    await notFound(
      server
        .post(`/api/v2/split-projects/${project.id}/scenario-comparisons`)
        .set(member(org))
        .send({ scenarios: [{ scenarioId: scenario.id }, { scenarioId: scenario.id }] }),
      'split_projects.not_found',
    );
    await notFound(activate(approver(org), project.id, { scenarioId: scenario.id }), 'split_projects.not_found');

    // Its place is free again; nothing of it was deleted.
    await create(agent, 'Loop 4');
    expect(await sql('SELECT count(*)::int AS n FROM split_project WHERE organization_id = $1', [org])).toEqual([{ n: 4 }]);
    expect(await sql('SELECT count(*)::int AS n FROM scenario_revision WHERE scenario_id = $1', [scenario.id])).toEqual([{ n: 1 }]);

    const audit = await sql(
      `SELECT subject_kind AS "subjectKind", subject_id AS "subjectId", supervisor_id AS "supervisorId", outcome
         FROM write_audit WHERE action = 'split-project.discard' AND target = $1`,
      [project.id],
    );
    expect(audit).toEqual([{ subjectKind: 'agent', subjectId: 'key-agent-loop', supervisorId: 'supervisor-loop', outcome: 'success' }]);
    const events = await sql(`SELECT actor, data FROM event_outbox WHERE type = 'split_project.discarded' AND organization_id = $1`, [org]);
    expect(events).toEqual([
      {
        actor: { kind: 'agent', id: 'key-agent-loop', supervisor: 'supervisor-loop' },
        data: { projectId: project.id, discardedAt: discarded.body.discardedAt },
      },
    ]);
  });

  it('refuses to discard an activated project, which stays as it was', async () => {
    const org = randomUUID();
    const { project, scenario } = await create(member(org), 'Activated');
    const { confirmationToken } = (await activate(approver(org), project.id, { scenarioId: scenario.id }).expect(428)).body;
    await activate(approver(org), project.id, { scenarioId: scenario.id, confirmationToken }).expect(201);

    const refused = await discard(approver(org), project.id).expect(409);
    expect(refused.body).toMatchObject({ code: 'conflict', domainCode: 'split_projects.not_a_draft' });
    expect(await discardedAt(project.id)).toBeNull();
    await request(api.server).get(`/api/v2/split-projects/${project.id}`).set(member(org)).expect(200);
    expect(
      await sql(`SELECT count(*)::int AS n FROM event_outbox WHERE type = 'split_project.discarded' AND organization_id = $1`, [org]),
    ).toEqual([{ n: 0 }]);
  });

  it('lets an agent or a key discard only the drafts it created, and a person any draft of the organization', async () => {
    const org = randomUUID();
    const byPerson = await create(member(org), 'By a person');
    const byAgent = await create(agentKey('one', org), 'By agent one');
    const forAnn = await create(as(`agent-token-host-for-ann-of:${org}`, org), 'By the host agent for Ann');

    const refusals: [Record<string, string>, string][] = [
      [agentKey('two', org), byAgent.project.id],
      [agentKey('one', org), byPerson.project.id],
      [as(`stdreg_app_partner_of:${org}`, org), byAgent.project.id],
      // The same agent client acting for another person is not the agent that drafted it for Ann.
      [as(`agent-token-host-for-bob-of:${org}`, org), forAnn.project.id],
    ];
    for (const [headers, id] of refusals) {
      const refused = await discard(headers, id).expect(403);
      expect(refused.body).toMatchObject({ code: 'forbidden', domainCode: 'split_projects.discard_not_yours' });
      expect(await discardedAt(id)).toBeNull();
    }
    const denied = await sql(
      `SELECT subject_id AS "subjectId", target FROM write_audit WHERE action = 'split-project.discard' AND outcome = 'denied' AND organization_id = $1
         ORDER BY id`,
      [org],
    );
    expect(denied).toEqual([
      { subjectId: 'key-agent-two', target: byAgent.project.id },
      { subjectId: 'key-agent-one', target: byPerson.project.id },
      { subjectId: 'key-partner', target: byAgent.project.id },
      { subjectId: 'client-host', target: forAnn.project.id },
    ]);

    await discard(as(`agent-token-host-for-ann-of:${org}`, org), forAnn.project.id).expect(200);
    await discard(member(org), byAgent.project.id).expect(200);
    await discard(approver(org), byPerson.project.id).expect(200);
    const listed = await request(api.server).get('/api/v2/split-projects').set(member(org)).expect(200);
    expect(listed.body.items).toEqual([]);
  });

  it("answers 404 for another organization's project and leaves it", async () => {
    const org = randomUUID();
    const other = randomUUID();
    const { project } = await create(member(org), 'Ours');
    expect((await discard(member(other), project.id).expect(404)).body.domainCode).toBe('split_projects.not_found');
    expect((await discard(agentKey('one', other), project.id).expect(404)).body.domainCode).toBe('split_projects.not_found');
    expect(await discardedAt(project.id)).toBeNull();
    await request(api.server).get(`/api/v2/split-projects/${project.id}`).set(member(org)).expect(200);
  });

  it('answers a repeated discard as the first, replaying a keyed one, and records it once', async () => {
    const org = randomUUID();
    const { project } = await create(member(org), 'Twice');
    const keyed = { ...member(org), 'Idempotency-Key': 'discard-twice' };
    const first = await discard(keyed, project.id).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await discard(keyed, project.id).expect(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    const again = await discard(approver(org), project.id).expect(200);
    expect(again.body).toEqual(first.body);

    expect(
      await sql(`SELECT count(*)::int AS n FROM write_audit WHERE action = 'split-project.discard' AND target = $1`, [project.id]),
    ).toEqual([{ n: 1 }]);
    expect(
      await sql(`SELECT count(*)::int AS n FROM event_outbox WHERE type = 'split_project.discarded' AND organization_id = $1`, [org]),
    ).toEqual([{ n: 1 }]);
  });

  it('lets only one of a discard and an activation of one draft happen, whichever comes first', async () => {
    const org = randomUUID();
    for (let round = 0; round < 4; round++) {
      const { project, scenario } = await create(member(org), `Race ${round}`);
      const { confirmationToken } = (await activate(approver(org), project.id, { scenarioId: scenario.id }).expect(428)).body;
      const [discarded, activated] = await Promise.all([
        discard(member(org), project.id),
        activate(approver(org), project.id, { scenarioId: scenario.id, confirmationToken }),
      ]);
      const outcome = `${discarded.status}/${activated.status}`;
      expect(['200/404', '409/201']).toContain(outcome);
      const [state] = await sql(
        `SELECT discarded_at IS NOT NULL AS discarded, EXISTS (SELECT 1 FROM rule_version WHERE project_id = $1) AS activated
           FROM split_project WHERE id = $1`,
        [project.id],
      );
      expect(state).toEqual(outcome === '200/404' ? { discarded: true, activated: false } : { discarded: false, activated: true });
    }
  });
});
