import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { sampleScenario } from './support/sample-scenario';

// Bytes no form would send, from the outside: each must be a 4xx that changes nothing, never a 500.
const ORG = randomUUID();
let running: ProtectedApi;

beforeAll(async () => {
  running = await startProtectedApi();
}, 120_000);
afterAll(() => running.close());

const member = credentialHeaders(`member-of:${ORG}`, ORG);
const server = () => running.api.server;
const written = async () =>
  (
    await running.api.dataSource.query(
      `SELECT (SELECT count(*) FROM split_project)::int AS projects, (SELECT count(*) FROM scenario_revision)::int AS revisions,
            (SELECT count(*) FROM write_audit)::int AS audit`,
    )
  )[0];
const newProject = (scenarioContent: unknown = sampleScenario()) => ({
  name: 'Studio revenue share',
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: scenarioContent },
});

describe('standards-api refuses hostile input with a 4xx and writes nothing', () => {
  it('refuses JSON nested 2000 deep', async () => {
    const before = await written();
    const response = await request(server())
      .post('/api/v2/split-projects')
      .set(member)
      .set('content-type', 'application/json')
      .send(`{"name":"x","scenario":{"content":${'['.repeat(2000)}${']'.repeat(2000)}}}`);
    expect(response.status).toBe(400);
    expect(await written()).toEqual(before);
  });

  it('answers a JSON body sent as text, as a form or with no Content-Type 415, naming the type to send, and writes nothing', async () => {
    const before = await written();
    const body = JSON.stringify(newProject());
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json', undefined]) {
      const sent = request(server()).post('/api/v2/split-projects').set(member);
      const refused = await (type ? sent.set('content-type', type) : sent.unset('content-type')).send(Buffer.from(body));
      expect(refused.status).toBe(415);
      expect(refused.body).toMatchObject({ code: 'unsupported_media_type' });
      expect(refused.body.detail).toContain('Content-Type: application/json');
    }
    await request(server()).post('/api/v2/search').set('content-type', 'text/plain').send('{"q":"basis","in":"terms"}').expect(415);
    expect(await written()).toEqual(before);
  });

  it('answers 415 on a route written in other letter cases too, which the router takes as the same route', async () => {
    const before = await written();
    for (const path of ['/API/V2/split-projects', '/Api/v2/Split-Projects']) {
      const refused = await request(server()).post(path).set(member).set('content-type', 'text/plain').send(JSON.stringify(newProject()));
      expect(refused.status).toBe(415);
      expect(refused.body).toMatchObject({ code: 'unsupported_media_type' });
    }
    await request(server()).post('/API/v2/Search').set('content-type', 'text/plain').send('{"q":"basis","in":"terms"}').expect(415);
    expect(await written()).toEqual(before);
  });

  it('refuses an object of more than 1 000 fields with one error, before any DTO reads it (its time grew with their square)', async () => {
    const fields = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1]));
    const search = await request(server())
      .post('/api/v2/search')
      .send({ q: 'approval', in: 'terms', ...fields });
    expect({ status: search.status, errors: search.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'body', message: 'the body has 20002 fields, more than the 1000 an object may have' }],
    });
    const before = await written();
    const created = await request(server())
      .post('/api/v2/split-projects')
      .set(member)
      .send({ ...newProject(), scenario: { name: 'Baseline', content: { ...sampleScenario(), ...fields } } });
    expect({ status: created.status, errors: created.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'scenario.content', message: 'scenario.content has 20004 fields, more than the 1000 an object may have' }],
    });
    expect(await written()).toEqual(before);
  });

  it('refuses an array of more than 1 000 items and a body of more than 20 000 values with one error, before any DTO copies them', async () => {
    const long = await request(server())
      .post('/api/v2/search')
      .send({ q: 'approval', in: 'terms', extra: Array(50_000).fill(0) });
    expect({ status: long.status, errors: long.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'extra', message: 'extra has 50000 items, more than the 1000 an array may have' }],
    });
    const nested = await request(server())
      .post('/api/v2/search')
      .send({ q: 'approval', in: 'terms', extra: Array.from({ length: 40 }, () => Array(1000).fill(0)) });
    expect({ status: nested.status, errors: nested.body.errors }).toEqual({
      status: 400,
      errors: [{ field: 'body', message: 'the body holds more than the 20000 values a body may have' }],
    });
  });

  it('refuses NUL and unpaired surrogates in a project and in scenario content on create, and in paths and queries', async () => {
    const before = await written();
    await request(server())
      .post('/api/v2/split-projects')
      .set(member)
      .send({ ...newProject(), name: 'Studio\u0000' })
      .expect(400);
    const content = sampleScenario() as { participants: { name: string }[] };
    content.participants[0]!.name = 'Ana \ud83d';
    const surrogate = await request(server()).post('/api/v2/split-projects').set(member).send(newProject(content)).expect(400);
    expect(surrogate.body.errors[0].field).toMatch(/^scenario\.content\.participants\[0\]\.name$/);
    await request(server()).get('/api/v2/split-projects/%00').set(member).expect(400);
    await request(server()).get('/api/v2/split-projects?cursor=%00').set(member).expect(400);
    await request(server()).get('/api/v2/standards/%ED%A0%80').expect(400);
    expect(await written()).toEqual(before);
  });

  it('refuses NUL and text that is not UTF-8 in a free-text query no database ever sees, and on a route that reads no input', async () => {
    await request(server()).get('/api/v2/terms?q=revenue%00share').expect(400);
    await request(server()).get('/api/v2/terms?q=%ED%A0%80').expect(400);
    await request(server()).get('/api/v2/terms?q=revenue').expect(200);
    await request(server()).get('/healthz?probe=%00').expect(400);
  });

  it('refuses integers the columns cannot hold, in a path, a query and a body', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const before = await written();
    for (const version of ['99999999999999999999', '2147483648', '0', '-1', '1.5', '1.9', '1e0', '01', '0x1']) {
      await request(server()).get(`/api/v2/split-projects/${projectId}/rule-versions/${version}`).set(member).expect(400);
    }
    await request(server()).get(`/api/v2/split-projects/${projectId}/rule-versions/1`).set(member).expect(200);
    await request(server()).get(`/api/v2/split-projects/${projectId}/rule-versions/2147483647`).set(member).expect(404);
    const zero = await request(server()).get(`/api/v2/split-projects/${projectId}/rule-versions/0`).set(member).expect(400);
    expect(zero.body.errors).toEqual([{ field: 'version', message: 'version must be an integer from 1 to 2147483647' }]);
    await request(server()).get(`/api/v2/operating-scenarios/${scenarioId}?revision=99999999999999999999`).set(member).expect(400);
    for (const fromRevision of [1e308, 2 ** 53, 2 ** 31]) {
      const response = await request(server())
        .post(`/api/v2/split-projects/${projectId}/scenarios`)
        .set(member)
        .send({ fromScenarioId: scenarioId, fromRevision, name: 'Branch' });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].field).toBe('fromRevision');
    }
    expect(await written()).toEqual(before);
  });

  it('refuses impossible dates', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const approver = credentialHeaders(`approver-of:${ORG}`, ORG);
    const before = await written();
    const response = await request(server())
      .post(`/api/v2/split-projects/${projectId}/rule-versions`)
      .set(approver)
      .send({ scenarioId, effectiveFrom: '2026-02-30T00:00:00Z' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe('effectiveFrom');
    expect(await written()).toEqual(before);
  });
});
