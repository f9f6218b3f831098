import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const ORG = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;
const headers = (key?: string) => ({
  Authorization: `Bearer member-of:${ORG}`,
  'X-Organization-Id': ORG,
  ...(key ? { 'Idempotency-Key': key } : {}),
});
const project = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const projectsNamed = async (name: string) =>
  (await api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name]))[0].n as number;

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef' });
});
afterAll(async () => {
  await api.close();
  await identity.stop();
});

describe('Idempotency-Key on POST', () => {
  it('returns the first result to a retry with the same key and body, without a second write', async () => {
    const first = await request(api.server).post('/api/v2/split-projects').set(headers('create-1')).send(project('Idem A')).expect(201);
    const retry = await request(api.server).post('/api/v2/split-projects').set(headers('create-1')).send(project('Idem A')).expect(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await projectsNamed('Idem A')).toBe(1);
  });

  it('refuses the same key with another body with a 422, writing nothing', async () => {
    await request(api.server).post('/api/v2/split-projects').set(headers('create-2')).send(project('Idem B')).expect(201);
    const other = await request(api.server).post('/api/v2/split-projects').set(headers('create-2')).send(project('Idem C')).expect(422);
    expect(other.body.errors[0].field).toBe('Idempotency-Key');
    expect(await projectsNamed('Idem C')).toBe(0);
  });

  it('writes once when the same request races with one key', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(api.server).post('/api/v2/split-projects').set(headers('create-race')).send(project('Idem Race')),
      ),
    );
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(responses.some((r) => r.status === 201)).toBe(true);
    expect(await projectsNamed('Idem Race')).toBe(1);
  });

  it('lets a failed request be retried with its key', async () => {
    const bad = { ...project('Idem D'), templateVersion: '9.9' };
    await request(api.server).post('/api/v2/split-projects').set(headers('create-3')).send(bad).expect(422);
    await request(api.server).post('/api/v2/split-projects').set(headers('create-3')).send(project('Idem D')).expect(201);
    expect(await projectsNamed('Idem D')).toBe(1);
  });

  it('keeps keys apart per organization and subject, and writes again without a key', async () => {
    await request(api.server).post('/api/v2/split-projects').set(headers()).send(project('Idem E')).expect(201);
    await request(api.server).post('/api/v2/split-projects').set(headers()).send(project('Idem E')).expect(201);
    expect(await projectsNamed('Idem E')).toBe(2);
    const otherOrg = randomUUID();
    await request(api.server).post('/api/v2/split-projects').set(headers('shared-key')).send(project('Idem F')).expect(201);
    await request(api.server)
      .post('/api/v2/split-projects')
      .set({ Authorization: `Bearer member-of:${otherOrg}`, 'X-Organization-Id': otherOrg, 'Idempotency-Key': 'shared-key' })
      .send(project('Idem F'))
      .expect(201);
    expect(await projectsNamed('Idem F')).toBe(2);
  });

  it("keeps one person's key apart in each organization they act in, never answering with another organization's result", async () => {
    const otherOrg = randomUUID();
    const inOrg = (org: string) => ({
      Authorization: `Bearer member-ann-of:${ORG},${otherOrg}`,
      'X-Organization-Id': org,
      'Idempotency-Key': 'person-key',
    });
    const here = await request(api.server).post('/api/v2/split-projects').set(inOrg(ORG)).send(project('Idem H')).expect(201);
    const there = await request(api.server).post('/api/v2/split-projects').set(inOrg(otherOrg)).send(project('Idem H')).expect(201);
    expect(there.headers['idempotent-replayed']).toBeUndefined();
    expect([here.body.project.organizationId, there.body.project.organizationId]).toEqual([ORG, otherOrg]);
    expect(await projectsNamed('Idem H')).toBe(2);
  });

  it('replays a retry whose body says the same in another key order, writing once', async () => {
    const body = project('Idem Order');
    const reordered = { scenario: body.scenario, templateVersion: body.templateVersion, currency: body.currency, name: body.name };
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const first = await request(api.server).post('/api/v2/split-projects').set(headers('order-1')).send(body).expect(201);
    const retry = await request(api.server).post('/api/v2/split-projects').set(headers('order-1')).send(reordered).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await projectsNamed('Idem Order')).toBe(1);
  });

  it('keeps one key apart on each route: the same key on another operation is a write of its own', async () => {
    const created = await request(api.server)
      .post('/api/v2/split-projects')
      .set(headers('route-key'))
      .send(project('Idem Route'))
      .expect(201);
    const branched = await request(api.server)
      .post(`/api/v2/split-projects/${created.body.project.id}/scenarios`)
      .set(headers('route-key'))
      .send({ name: 'Branched under the same key', fromScenarioId: created.body.scenario.id })
      .expect(201);
    expect(branched.headers['idempotent-replayed']).toBeUndefined();
    expect(branched.body.name).toBe('Branched under the same key');
  });

  it("keeps two people's keys apart in one organization: the second is written, not answered with the first's result", async () => {
    const as = (person: string) => ({
      Authorization: `Bearer member-${person}-of:${ORG}`,
      'X-Organization-Id': ORG,
      'Idempotency-Key': 'team-key',
    });
    const first = await request(api.server).post('/api/v2/split-projects').set(as('ann')).send(project('Idem Team')).expect(201);
    const second = await request(api.server).post('/api/v2/split-projects').set(as('bob')).send(project('Idem Team')).expect(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect([first.body.project.createdBy, second.body.project.createdBy]).toEqual(['human:uid-ann', 'human:uid-bob']);
    expect(await projectsNamed('Idem Team')).toBe(2);
  });

  it("keeps the keys of two people's agents apart when both sign in through one agent client: each person's draft is written", async () => {
    // One agent host (one client id, e.g. a Client ID Metadata Document URL) serves many people; the
    // gateway passes on the agent's own idempotencyKey, so two people's agents may well send the same one.
    const as = (person: string) => ({
      Authorization: `Bearer agent-token-host-for-${person}-of:${ORG}`,
      'X-Organization-Id': ORG,
      'Idempotency-Key': 'draft-1',
    });
    const first = await request(api.server).post('/api/v2/split-projects').set(as('ann')).send(project('Idem Agents')).expect(201);
    const second = await request(api.server).post('/api/v2/split-projects').set(as('bob')).send(project('Idem Agents')).expect(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect([first.body.project.createdBy, second.body.project.createdBy]).toEqual([
      'agent:client-host supervised by human:uid-ann',
      'agent:client-host supervised by human:uid-bob',
    ]);
    expect(await projectsNamed('Idem Agents')).toBe(2);
    const retry = await request(api.server).post('/api/v2/split-projects').set(as('bob')).send(project('Idem Agents')).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(second.body);
  });

  it('still replays a stored result once the takeover time of an abandoned claim has passed, of a write and of a request that wrote nothing', async () => {
    const created = await request(api.server).post('/api/v2/split-projects').set(headers('old-key')).send(project('Idem Old')).expect(201);
    const { project: made, scenario } = created.body;
    const branch = await request(api.server)
      .post(`/api/v2/split-projects/${made.id}/scenarios`)
      .set(headers())
      .send({ name: 'Other', fromScenarioId: scenario.id })
      .expect(201);
    const compare = () =>
      request(api.server)
        .post(`/api/v2/split-projects/${made.id}/scenario-comparisons`)
        .set(headers('old-comparison'))
        .send({ scenarios: [{ scenarioId: scenario.id }, { scenarioId: branch.body.id }] })
        .expect(200);
    const compared = await compare();
    await api.dataSource.query(
      `UPDATE idempotency_record SET created_at = now() - interval '10 minutes' WHERE idempotency_key IN ('old-key', 'old-comparison')`,
    );
    const retry = await request(api.server).post('/api/v2/split-projects').set(headers('old-key')).send(project('Idem Old')).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(created.body);
    expect(await projectsNamed('Idem Old')).toBe(1);
    const comparedAgain = await compare();
    expect(comparedAgain.headers['idempotent-replayed']).toBe('true');
    expect(comparedAgain.body).toEqual(compared.body);
  });

  it('keeps the claim of a write that committed when its answer could not be stored: the retry is refused (in_progress, then answer_lost), not written again', async () => {
    const records = api.app.get(IdempotencyRepository);
    const complete = records.complete;
    records.complete = async () => {
      throw new Error('the connection was lost after the commit');
    };
    try {
      await request(api.server).post('/api/v2/split-projects').set(headers('lost-answer')).send(project('Idem Lost'));
    } finally {
      records.complete = complete;
    }
    expect(await projectsNamed('Idem Lost')).toBe(1);
    const retry = await request(api.server)
      .post('/api/v2/split-projects')
      .set(headers('lost-answer'))
      .send(project('Idem Lost'))
      .expect(409);
    // Within the takeover time it cannot be told from a request still storing its answer.
    expect(retry.body.domainCode).toBe('idempotency.in_progress');
    expect(await projectsNamed('Idem Lost')).toBe(1);
    // Its write committed, so no takeover time frees the key for a second write: past it, the answer is lost.
    await api.dataSource.query(
      `UPDATE idempotency_record SET created_at = now() - interval '10 minutes' WHERE idempotency_key = 'lost-answer'`,
    );
    const later = await request(api.server)
      .post('/api/v2/split-projects')
      .set(headers('lost-answer'))
      .send(project('Idem Lost'))
      .expect(409);
    expect(later.body.domainCode).toBe('idempotency.answer_lost');
    expect(await projectsNamed('Idem Lost')).toBe(1);
  });

  it('reads afresh a GET that carries a key: only POSTs are kept and replayed', async () => {
    const { project: made, scenario } = (
      await request(api.server).post('/api/v2/split-projects').set(headers()).send(project('Idem Read')).expect(201)
    ).body;
    const scenarios = () => request(api.server).get(`/api/v2/split-projects/${made.id}/scenarios`).set(headers('read-key')).expect(200);
    expect((await scenarios()).body.items).toHaveLength(1);
    await request(api.server)
      .post(`/api/v2/split-projects/${made.id}/scenarios`)
      .set(headers())
      .send({ name: 'Branch', fromScenarioId: scenario.id })
      .expect(201);
    const again = await scenarios();
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.items).toHaveLength(2);
  });

  it('replays the first answer byte for byte, with its status and content type', async () => {
    const first = await request(api.server).post('/api/v2/split-projects').set(headers('bytes-1')).send(project('Idem Bytes')).expect(201);
    const retry = await request(api.server).post('/api/v2/split-projects').set(headers('bytes-1')).send(project('Idem Bytes')).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.text).toBe(first.text);
  });

  it('takes a retry sent to another spelling of the same path (a trailing slash, another case) as the same request', async () => {
    const first = await request(api.server)
      .post('/api/v2/split-projects')
      .set(headers('spelling-1'))
      .send(project('Idem Spelling'))
      .expect(201);
    for (const path of ['/api/v2/split-projects/', '/API/V2/Split-Projects']) {
      const retry = await request(api.server).post(path).set(headers('spelling-1')).send(project('Idem Spelling')).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    }
    expect(await projectsNamed('Idem Spelling')).toBe(1);
    const { project: made, scenario } = first.body;
    const branch = (path: string) =>
      request(api.server).post(path).set(headers('spelling-2')).send({ name: 'Spelled twice', fromScenarioId: scenario.id }).expect(201);
    const branched = await branch(`/api/v2/split-projects/${made.id}/scenarios`);
    const again = await branch(`/api/v2/Split-Projects/${made.id}/scenarios/`);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(branched.body);
    const scenarios = await request(api.server).get(`/api/v2/split-projects/${made.id}/scenarios`).set(headers()).expect(200);
    expect(scenarios.body.items).toHaveLength(2);
  });

  it('refuses a keyed body holding a number beyond a double (1e400) as bad input, not a server error, writing nothing', async () => {
    const body = JSON.stringify(project('Idem Huge')).replace('"currency":"EUR"', '"currency":"EUR","extra":1e400');
    const response = await request(api.server)
      .post('/api/v2/split-projects')
      .set({ ...headers('huge-1'), 'Content-Type': 'application/json' })
      .send(body)
      .expect(400);
    expect(response.body.errors[0].field).toBe('extra');
    expect(await projectsNamed('Idem Huge')).toBe(0);
    await request(api.server).post('/api/v2/split-projects').set(headers('huge-1')).send(project('Idem Huge')).expect(201);
  });

  it('refuses a malformed key', async () => {
    const response = await request(api.server).post('/api/v2/split-projects').set(headers('has space')).send(project('Idem G')).expect(400);
    expect(response.body.errors[0].field).toBe('Idempotency-Key');
  });
});
