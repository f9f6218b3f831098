import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
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
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: 'test-service-token' });
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

  it('refuses a malformed key', async () => {
    const response = await request(api.server).post('/api/v2/split-projects').set(headers('has space')).send(project('Idem G')).expect(400);
    expect(response.body.errors[0].field).toBe('Idempotency-Key');
  });
});
