import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { FakeIdentity, openApiConformance, openApiDocumentProblems, recordingServer, type Exchange } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// Partners generate clients from /api/v2/openapi.json: every answer of this run (happy paths and refusals of every
// operation) is checked against it, as is every documented example body.

const identity = new FakeIdentity();
let api: RunningStandardsApi;
let exchanges: Exchange[];
let http: ReturnType<typeof request>;
let document: Parameters<typeof openApiConformance>[0] & Record<string, unknown>;
const ORG = randomUUID();
const ELSEWHERE = randomUUID();
const as = (credential: string, org = ORG) => ({ Authorization: `Bearer ${credential}`, 'X-Organization-Id': org });
const member = as(`member-of:${ORG}`);
const approver = as(`approver-of:${ORG}`);

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
    SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '3',
    SPLIT_PROJECT_MAX_SCENARIOS: '2',
    SCENARIO_MAX_REVISIONS: '3',
  });
  const recording = recordingServer(api.app.getHttpAdapter().getInstance() as (q: IncomingMessage, s: ServerResponse) => void);
  exchanges = recording.exchanges;
  http = request(recording.server);
  document = (await http.get('/api/v2/openapi.json').expect(200)).body;
}, 120_000);
afterAll(async () => {
  await api?.close();
  await identity.stop();
});

const newProject = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});

/** Every registry read: found, localized, not modified, unknown, malformed. */
async function registryReads(): Promise<void> {
  const first = async (path: string, key: string) => (await http.get(path).expect(200)).body.items[0][key] as string;
  const section = await first('/api/v2/standards', 'sectionId');
  const task = await first('/api/v2/tasks', 'taskCode');
  const role = await first('/api/v2/roles', 'role');
  const policy = await first('/api/v2/policies', 'policyId');
  const template = await first('/api/v2/split-templates', 'version');
  const reads = [
    '/api/v2/manifest',
    '/api/v2/standards',
    `/api/v2/standards/${section}`,
    '/api/v2/terms',
    '/api/v2/tasks',
    `/api/v2/tasks/${task}`,
  ];
  reads.push('/api/v2/roles', `/api/v2/roles/${role}`, '/api/v2/policies', `/api/v2/policies/${policy}`, '/api/v2/brand/current');
  reads.push('/api/v2/split-templates', `/api/v2/split-templates/${template}`);
  for (const path of reads) {
    const answer = await http.get(`${path}?lang=zh-Hans`).expect(200);
    await http.get(`${path}?lang=zh-Hans`).set('If-None-Match', answer.headers['etag']!).expect(304);
    await http.get(`${path}?lang=zh-Hans`).set('If-Match', `W/${answer.headers['etag']!}`).expect(412);
  }
  for (const path of [
    '/api/v2/standards/NOPE',
    '/api/v2/tasks/NOPE',
    '/api/v2/roles/nope',
    '/api/v2/policies/NOPE',
    '/api/v2/split-templates/9.9',
  ])
    await http.get(path).expect(404);
  await http.get('/api/v2/terms?limit=0').expect(400);
  await http.get(`/api/v2/policies/${policy}?version=1.0&at=2026-01-01`).expect(400);
  await http.get('/api/v2/standards?colour=red').expect(400);
  await http.get(`/api/v2/policies/${policy}?at=2026-02-30`).expect(400);
  await http.get(`/api/v2/policies/${policy}?at=2026-03-01`).expect(200);
  await http.get(`/api/v2/standards/${section}?version=latest`).expect(400);
  await http.post('/api/v2/search').send({ q: 'revenue share', in: 'terms' }).expect(200);
  await http.post('/api/v2/search').send({ q: 'settlement approval', in: 'standards', limit: 2 }).expect(200);
  await http.post('/api/v2/search').send({ q: 'approve', in: 'roles' }).expect(200);
  await http.post('/api/v2/search').send({ q: '   ', in: 'terms' }).expect(400);
  await http.post('/api/v2/search').send({ q: 'x', in: 'terms', colour: 'red' }).expect(400);
  await http.post('/api/v2/search').set('Content-Type', 'text/plain').send('q=x').expect(415);
}

/** A project from draft to settlement, with the refusals on the way. */
async function projectWork(): Promise<void> {
  const created = await http
    .post('/api/v2/split-projects')
    .set(member)
    .set('Idempotency-Key', 'conformance-1')
    .send(newProject('Studio'))
    .expect(201);
  await http.post('/api/v2/split-projects').set(member).set('Idempotency-Key', 'conformance-1').send(newProject('Studio')).expect(201);
  await http.post('/api/v2/split-projects').set(member).set('Idempotency-Key', 'conformance-1').send(newProject('Other')).expect(422);
  await http.post('/api/v2/split-projects').set(member).set('Idempotency-Key', 'bad key').send(newProject('Other')).expect(400);
  const projectId: string = created.body.project.id;
  const scenarioId: string = created.body.scenario.id;
  await http
    .post('/api/v2/split-projects')
    .set(member)
    .send({ ...newProject('x'), currency: 'EURO' })
    .expect(400);
  await http
    .post('/api/v2/split-projects')
    .set(member)
    .send({ ...newProject('x'), scenario: { name: 'Baseline', content: {} } })
    .expect(422);
  await http.post('/api/v2/split-projects').set({ 'X-Organization-Id': ORG }).send(newProject('x')).expect(401);
  await http
    .post('/api/v2/split-projects')
    .set({ Authorization: `Bearer member-of:${ORG}` })
    .send(newProject('x'))
    .expect(400);
  await http.post('/api/v2/split-projects').set(member).set('Content-Type', 'text/plain').send('name=x').expect(415);
  await http.get('/api/v2/split-projects?limit=1').set(member).expect(200);
  await http.get(`/api/v2/split-projects/${projectId}`).set(member).expect(200);
  await http.get(`/api/v2/split-projects/${randomUUID()}`).set(member).expect(404);
  await http.get('/api/v2/split-projects/not-a-uuid').set(member).expect(400);
  await http.get(`/api/v2/split-projects/${projectId}/scenarios`).set(member).expect(200);
  const branch = await http
    .post(`/api/v2/split-projects/${projectId}/scenarios`)
    .set(member)
    .send({ fromScenarioId: scenarioId, name: 'Branch' })
    .expect(201);
  await http
    .post(`/api/v2/split-projects/${projectId}/scenarios`)
    .set(member)
    .send({ fromScenarioId: scenarioId, name: 'Third' })
    .expect(409);
  await http
    .post(`/api/v2/split-projects/${projectId}/scenarios`)
    .set(member)
    .send({ fromScenarioId: randomUUID(), name: 'Lost' })
    .expect(404);
  const scenario = await http.get(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).expect(200);
  await http.get(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).set('If-None-Match', scenario.headers['etag']!).expect(304);
  await http.get(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).set('If-Match', '"stale"').expect(412);
  await http.patch(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).set('If-None-Match', '*').send({ periods: [] }).expect(412);
  await http
    .patch(`/api/v2/operating-scenarios/${branch.body.id}`)
    .set(member)
    .set('If-Match', '"stale"')
    .send({ periods: [] })
    .expect(412);
  await http.patch(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).send({ currency: 'usd' }).expect(422);
  const periods = (revenue: string) => ({ periods: [{ periodId: '2026-01', revenue, costs: '0.00' }] });
  const revise = (body: object) => http.patch(`/api/v2/operating-scenarios/${branch.body.id}`).set(member).send(body);
  const revised = await revise(periods('1.00')).set('If-Match', scenario.headers['etag']!).expect(200);
  await revise(periods('2.00')).expect(200);
  await revise(periods('3.00')).expect(409);
  await http.get(`/api/v2/operating-scenarios/${branch.body.id}?revision=1`).set(member).expect(200);
  expect(revised.body.revision).toBe(2);
  await http.get(`/api/v2/operating-scenarios/${branch.body.id}/revisions`).set(member).expect(200);
  await http.get(`/api/v2/operating-scenarios/${randomUUID()}/revisions`).set(member).expect(404);
  await http
    .post(`/api/v2/split-projects/${projectId}/scenario-comparisons`)
    .set(member)
    .send({ scenarios: [{ scenarioId }, { scenarioId: branch.body.id }] })
    .expect(200);
  await http
    .post(`/api/v2/split-projects/${projectId}/scenario-comparisons`)
    .set(member)
    .send({ scenarios: [{ scenarioId }] })
    .expect(400);
  // Activation: people only, in two steps.
  const activate = (body: Record<string, unknown>, who = approver) =>
    http
      .post(`/api/v2/split-projects/${projectId}/activate`)
      .set(who)
      .send({ scenarioId, ...body });
  await activate({}, as(`stdreg_agent_loop_of:${ORG}`)).expect(403);
  await activate({}, member).expect(403);
  const { confirmationToken } = (await activate({}).expect(428)).body;
  await activate({ confirmationToken }).expect(201);
  await activate({ confirmationToken }).expect(409);
  await http.get(`/api/v2/split-projects/${projectId}/rule-versions`).set(member).expect(200);
  await http.get(`/api/v2/split-projects/${projectId}/rule-versions/1`).set(member).expect(200);
  await http.get(`/api/v2/split-projects/${projectId}/rule-versions/9`).set(member).expect(404);
  const future = { scenarioId, effectiveFrom: new Date(Date.now() + 3_600_000).toISOString() };
  const nextVersion = (body: Record<string, unknown>) =>
    http
      .post(`/api/v2/split-projects/${projectId}/rule-versions`)
      .set(approver)
      .send({ ...future, ...body });
  await nextVersion({}).expect(201);
  await nextVersion({ effectiveFrom: '2020-01-01T00:00:00Z' }).expect((answer) => expect([400, 422]).toContain(answer.status));
  // Settlement.
  const actuals = { periodId: '2026-01', periodEnd: new Date().toISOString(), revenue: '10000.00', costs: '2500.01' };
  const settle = (body: Record<string, unknown>, who = approver) =>
    http
      .post(`/api/v2/split-projects/${projectId}/settlement-runs`)
      .set(who)
      .send({ ...actuals, ...body });
  await settle({}, as(`stdreg_app_partner_of:${ORG}`)).expect(403);
  const settlement = (await settle({}).expect(428)).body.confirmationToken;
  const run = (await settle({ confirmationToken: settlement }).expect(201)).body;
  await settle({ revenue: 'lots' }).expect(422);
  await settle({ revenue: 12 }).expect(400);
  const correction = { correctsRunId: run.id, revenue: '11000.00' };
  const corrected = (await settle(correction).expect(428)).body.confirmationToken;
  await settle({ ...correction, confirmationToken: corrected }).expect(201);
  await http.get(`/api/v2/split-projects/${projectId}/settlement-runs`).set(member).expect(200);
  await http.get(`/api/v2/settlement-runs/${run.id}`).set(member).expect(200);
  await http.get(`/api/v2/settlement-runs/${randomUUID()}`).set(member).expect(404);
  await http.get(`/api/v2/equity-ledgers/${run.allocations[1].legalEntityId}`).set(member).expect(200);
  // The drafting bound of the organization.
  const second = (await http.post('/api/v2/split-projects').set(member).send(newProject('Second')).expect(201)).body.project.id;
  await http.post('/api/v2/split-projects').set(member).send(newProject('Third')).expect(201);
  await http.post('/api/v2/split-projects').set(member).send(newProject('Fourth')).expect(201);
  await http.post('/api/v2/split-projects').set(member).send(newProject('Fifth')).expect(409);
  // Discarding a draft: refused to an agent that did not create it, and for an activated project; answered again.
  const discard = (id: string, who = member) => http.delete(`/api/v2/split-projects/${id}`).set(who);
  await discard(second, as(`stdreg_agent_loop_of:${ORG}`)).expect(403);
  await discard(projectId).expect(409);
  await discard(randomUUID()).expect(404);
  await discard(second).set('Idempotency-Key', 'conformance-discard').expect(200);
  await discard(second).set('Idempotency-Key', 'conformance-discard').expect(200);
  await discard(second).expect(200);
}

/** A body made of the examples the document gives, for each operation whose body schema gives them all. */
async function documentedExamples(): Promise<void> {
  await http
    .post('/api/v2/search')
    .send({ q: exampleOf('SearchRequestDto', 'q'), in: 'standards' })
    .expect(200);
  const project = {
    name: exampleOf('CreateSplitProjectRequestDto', 'name'),
    currency: exampleOf('CreateSplitProjectRequestDto', 'currency'),
  };
  await http
    .post('/api/v2/split-projects')
    .set(as(`member-of:${ELSEWHERE}`, ELSEWHERE))
    .send({ ...newProject('x'), ...project, templateVersion: exampleOf('CreateSplitProjectRequestDto', 'templateVersion') })
    .expect(201);
}
const exampleOf = (schema: string, property: string): unknown =>
  (document['components'] as { schemas: Record<string, { properties: Record<string, { example?: unknown }> }> }).schemas[schema]!
    .properties[property]!.example;

describe('the OpenAPI document standards-api serves', () => {
  it('is an OpenAPI 3.1 document whose references resolve and whose schemas are JSON Schema', () => {
    expect(openApiDocumentProblems(document)).toEqual([]);
  });

  it('describes every answer of every operation, happy paths and refusals: statuses, bodies, headers, request bodies', async () => {
    await registryReads();
    await projectWork();
    await documentedExamples();
    const conformance = openApiConformance(document);
    expect(conformance.violations(exchanges)).toEqual([]);
    expect(conformance.unreached(exchanges, '2')).toEqual([]);
  }, 120_000);
});
