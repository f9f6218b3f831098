import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// Drafts are never discarded, so a drafting loop (an agent's, a key's) is bounded where it writes: an organization's
// projects not yet activated, a project's scenarios, a scenario's revisions. Each bound is counted under a lock, so
// concurrent writes cannot pass it together, and the next write is a 409 with its domain code that stores nothing.

const identity = new FakeIdentity();
let api: RunningStandardsApi;

const agentKey = (org: string) => ({ Authorization: `Bearer stdreg_agent_loop_of:${org}`, 'X-Organization-Id': org });
const agentToken = (org: string) => ({ Authorization: `Bearer agent-token-host-for-ann-of:${org}`, 'X-Organization-Id': org });
const approver = (org: string) => ({ Authorization: `Bearer approver-of:${org}`, 'X-Organization-Id': org });
const newProject = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const projectsOf = async (org: string): Promise<number> =>
  (await api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE organization_id = $1', [org]))[0].n;
const createAs = (as: Record<string, string>, name: string) =>
  request(api.server).post('/api/v2/split-projects').set(as).send(newProject(name));
const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status).sort();

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
    SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '3',
    SPLIT_PROJECT_MAX_SCENARIOS: '3',
    SCENARIO_MAX_REVISIONS: '3',
  });
});
afterAll(async () => {
  await api?.close();
  await identity.stop();
});

describe('a drafting loop is bounded', () => {
  it("stops at the organization's drafts, however many creates run at once; an activated project frees a place; another organization is not touched", async () => {
    const org = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createAs(agentKey(org), `Loop ${i}`)));
    expect(statuses(answers)).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'conflict', domainCode: 'split_projects.draft_limit_reached' });
    expect(await projectsOf(org)).toBe(3);
    await createAs(approver(org), 'By a person').expect(409);
    const other = randomUUID();
    await createAs(agentKey(other), 'Elsewhere').expect(201);
    // A person activates one of the drafts: it is no longer a draft, and one more may be drafted.
    const { project, scenario } = answers.find((answer) => answer.status === 201)!.body;
    const activate = (body: Record<string, unknown>) =>
      request(api.server).post(`/api/v2/split-projects/${project.id}/activate`).set(approver(org)).send(body);
    const { confirmationToken } = (await activate({ scenarioId: scenario.id }).expect(428)).body;
    await activate({ scenarioId: scenario.id, confirmationToken }).expect(201);
    await createAs(agentKey(org), 'After activation').expect(201);
    await createAs(agentKey(org), 'One too many').expect(409);
    expect(await projectsOf(org)).toBe(4);
  });

  it("stops at a project's scenarios, however many branches run at once", async () => {
    const org = randomUUID();
    const { project, scenario } = (await createAs(agentToken(org), 'Branched').expect(201)).body;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(api.server)
          .post(`/api/v2/split-projects/${project.id}/scenarios`)
          .set(agentToken(org))
          .send({ fromScenarioId: scenario.id, name: `Branch ${i}` }),
      ),
    );
    expect(statuses(answers)).toEqual([201, 201, 409, 409, 409, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toMatchObject({
      code: 'conflict',
      domainCode: 'scenarios.limit_reached',
    });
    const stored = await api.dataSource.query('SELECT count(*)::int AS n FROM operating_scenario WHERE project_id = $1', [project.id]);
    expect(stored).toEqual([{ n: 3 }]);
  });

  it("stops at a scenario's revisions; a change that changes nothing is still answered", async () => {
    const org = randomUUID();
    const { scenario } = (await createAs(agentToken(org), 'Revised').expect(201)).body;
    const revise = (periodId: string) =>
      request(api.server)
        .patch(`/api/v2/operating-scenarios/${scenario.id}`)
        .set(agentToken(org))
        .send({ periods: [{ periodId, revenue: '5000.00', costs: '100.00' }] });
    expect((await revise('2026-01').expect(200)).body.revision).toBe(2);
    expect((await revise('2026-02').expect(200)).body.revision).toBe(3);
    const refused = await revise('2026-03').expect(409);
    expect(refused.body).toMatchObject({ code: 'conflict', domainCode: 'scenarios.revision_limit_reached' });
    expect((await revise('2026-02').expect(200)).body.revision).toBe(3);
    const stored = await api.dataSource.query(
      'SELECT max(revision) AS last, count(*)::int AS n FROM scenario_revision WHERE scenario_id = $1',
      [scenario.id],
    );
    expect(stored).toEqual([{ last: 3, n: 3 }]);
  });
});
