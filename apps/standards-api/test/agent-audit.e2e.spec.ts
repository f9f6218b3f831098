// AGT-1 at standards-api (issue 17): an agent's drafts are recorded with its supervisor; formal writes are
// never an agent's, even when identity (here the fake) wrongly allows them.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { sampleScenario } from './support/sample-scenario';

const ORG = randomUUID();
let running: ProtectedApi;

const server = () => running.api.server;
const agent = (name = 'ada') => credentialHeaders(`stdreg_agent_${name}_of:${ORG}`, ORG);
const misjudgedAgent = () => credentialHeaders(`stdreg_misjudged_agent_of:${ORG}`, ORG);
const count = async (from: string) => (await running.api.dataSource.query(`SELECT count(*)::int AS n FROM ${from}`))[0].n as number;
const written = async () => ({
  ruleVersions: await count('rule_version'),
  runs: await count('settlement_run'),
  audit: await count("write_audit WHERE outcome = 'success'"),
  challenges: await count('confirmation_challenge'),
});
const auditOf = (target: string) =>
  running.api.dataSource.query(
    `SELECT action, subject_kind AS "subjectKind", subject_id AS "subjectId", supervisor_id AS "supervisorId"
       FROM write_audit WHERE target = $1 ORDER BY at, id`,
    [target],
  );

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(() => running?.close());

describe("an agent's writes", () => {
  it('records its drafts with subject kind agent and its supervisor, and shows the supervisor as their author', async () => {
    const created = await request(server())
      .post('/api/v2/split-projects')
      .set(agent())
      .send({
        name: 'Drafted by an agent',
        currency: 'EUR',
        templateVersion: '2.0',
        scenario: { name: 'Baseline', content: sampleScenario() },
      })
      .expect(201);
    expect(created.body.project.createdBy).toBe('agent:key-agent-ada supervised by human:supervisor-ada');
    const scenarioId: string = created.body.scenario.id;
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(agent())
      .send({ periods: [{ periodId: '2026-04', revenue: '1.00', costs: '0' }] })
      .expect(200);

    const recorded = { subjectKind: 'agent', subjectId: 'key-agent-ada', supervisorId: 'supervisor-ada' };
    expect(await auditOf(created.body.project.id)).toEqual([{ action: 'split-project.create', ...recorded }]);
    expect(await auditOf(scenarioId)).toEqual([{ action: 'operating-scenario.revise', ...recorded }]);
  });

  it("records a person's writes without a supervisor", async () => {
    const created = await request(server())
      .post('/api/v2/split-projects')
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .send({
        name: 'Drafted by a person',
        currency: 'EUR',
        templateVersion: '2.0',
        scenario: { name: 'Baseline', content: sampleScenario() },
      })
      .expect(201);
    expect(await auditOf(created.body.project.id)).toEqual([
      { action: 'split-project.create', subjectKind: 'human', subjectId: `uid-${ORG}`, supervisorId: null },
    ]);
  });

  it('records with each write the request id its answer carries, so the audit entry leads to the request in the logs', async () => {
    const created = await request(server())
      .post('/api/v2/split-projects')
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .set('X-Request-Id', 'audit-request-0001')
      .send({ name: 'Traced', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    expect(created.headers['x-request-id']).toBe('audit-request-0001');
    const revised = await request(server())
      .patch(`/api/v2/operating-scenarios/${created.body.scenario.id}`)
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .send({ periods: [{ periodId: '2026-04', revenue: '1.00', costs: '0' }] })
      .expect(200);
    const recorded = await running.api.dataSource.query(
      `SELECT action, request_id AS "requestId" FROM write_audit WHERE target = ANY($1::text[]) ORDER BY at, id`,
      [[created.body.project.id, created.body.scenario.id]],
    );
    expect(recorded).toEqual([
      { action: 'split-project.create', requestId: 'audit-request-0001' },
      { action: 'operating-scenario.revise', requestId: revised.headers['x-request-id'] },
    ]);
  });
});

describe('formal writes are never an agent’s', () => {
  it('passes on identity’s agent_delegated, and refuses an agent identity wrongly allows, writing nothing but its refusals (denied)', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const before = await written();
    const token = { confirmationToken: 'x'.repeat(43) };
    // Each with the bodies it accepts: the confirmed writes with and without a confirmation token.
    const formal: [string, Record<string, unknown>[]][] = [
      [`/api/v2/split-projects/${projectId}/activate`, [{ scenarioId }, { scenarioId, ...token }]],
      [
        `/api/v2/split-projects/${projectId}/rule-versions`,
        [{ scenarioId, effectiveFrom: new Date(Date.now() + 86_400_000).toISOString() }],
      ],
      [
        `/api/v2/split-projects/${projectId}/settlement-runs`,
        [
          { periodId: '2026-01', revenue: '10.00', costs: '0', periodEnd: new Date().toISOString() },
          { periodId: '2026-01', revenue: '10.00', costs: '0', periodEnd: new Date().toISOString(), ...token },
        ],
      ],
    ];
    for (const [path, [body, ...others]] of formal) {
      const delegated = await request(server()).post(path).set(agent()).send(body);
      expect({ path, status: delegated.status, detail: delegated.body.detail }).toEqual({
        path,
        status: 403,
        detail: 'Not allowed: agent_delegated.',
      });
      for (const attempt of [body, ...others]) {
        const misjudged = await request(server()).post(path).set(misjudgedAgent()).send(attempt);
        expect({ path, status: misjudged.status, code: misjudged.body.domainCode }).toEqual({
          path,
          status: 403,
          code: 'authorization.human_required',
        });
      }
    }
    expect(await written()).toEqual(before);
    // Each refusal of its own is recorded as denied, naming the agent and its supervisor; identity's entry said allowed.
    const refusals = await running.api.dataSource.query(
      `SELECT action, outcome, subject_kind AS "subjectKind", subject_id AS "subjectId", supervisor_id AS "supervisorId", detail
         FROM write_audit WHERE target = $1 AND outcome = 'denied' ORDER BY id`,
      [projectId],
    );
    const refusal = (action: string) => ({
      action,
      outcome: 'denied',
      subjectKind: 'agent',
      subjectId: 'key-agent-misjudged',
      supervisorId: 'supervisor-misjudged',
      detail: { domainCode: 'authorization.human_required' },
    });
    expect(refusals).toEqual([
      refusal('split-project.activate'),
      refusal('split-project.activate'),
      refusal('rule-version.create'),
      refusal('settlement-run.post'),
      refusal('settlement-run.post'),
    ]);
  });
});
