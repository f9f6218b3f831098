import request from 'supertest';
import { sampleScenario } from './support/sample-scenario';
import { newPartner, startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

let identity: RealIdentity;
let api: RunningStandardsApi;

const partner = () => newPartner(identity);

const project = {
  name: 'With real identity',
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
};

beforeAll(async () => {
  identity = await startRealIdentity();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: identity.serviceToken });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await identity?.stop();
});

describe('split projects authorized by the real identity service', () => {
  it("lets an app key draft in its own organization and keeps other organizations' keys out", async () => {
    const acme = await partner();
    const globex = await partner();
    const created = await request(api.server)
      .post('/api/v2/split-projects')
      .set({ Authorization: `Bearer ${acme.key}`, 'X-Organization-Id': acme.organizationId })
      .send(project)
      .expect(201);
    expect(created.body.project.createdBy).toMatch(/^app_key:/);

    const foreign = await request(api.server)
      .get(`/api/v2/split-projects/${created.body.project.id}`)
      .set({ Authorization: `Bearer ${globex.key}`, 'X-Organization-Id': acme.organizationId })
      .expect(403);
    expect(foreign.body.detail).toBe('Not allowed: organization_mismatch.');
    await request(api.server)
      .get(`/api/v2/split-projects/${created.body.project.id}`)
      .set({ Authorization: `Bearer ${globex.key}`, 'X-Organization-Id': globex.organizationId })
      .expect(404);
  });

  it('refuses an organization id identity would not take as one with 400, not as identity being unavailable', async () => {
    const acme = await partner();
    // Hexadecimal in a UUID's shape, but version 0: no UUID (RFC 9562), and identity refuses it in a question.
    for (const organizationId of ['01900000-0000-0000-8000-0000000000aa', '01900000-0000-7000-0000-0000000000aa']) {
      const refused = await request(api.server)
        .post('/api/v2/split-projects')
        .set({ Authorization: `Bearer ${acme.key}`, 'X-Organization-Id': organizationId })
        .send(project);
      expect({ organizationId, status: refused.status, domainCode: refused.body.domainCode }).toEqual({
        organizationId,
        status: 400,
        domainCode: 'authorization.organization_missing',
      });
    }
    expect(await api.dataSource.query('SELECT id FROM split_project WHERE organization_id::text LIKE $1', ['01900000-%'])).toEqual([]);
  });

  it('refuses an unknown or revoked key with 401 (an invalid credential, DESIGN.md) and writes nothing', async () => {
    const acme = await partner();
    const before = (await api.dataSource.query('SELECT count(*)::int AS n FROM split_project'))[0].n;
    const refused = await request(api.server)
      .post('/api/v2/split-projects')
      .set({ Authorization: `Bearer stdreg_app_aaaaaaaaaa_${'A'.repeat(43)}`, 'X-Organization-Id': acme.organizationId })
      .send(project)
      .expect(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="standards-api", error="invalid_token"');
    expect(refused.body.code).toBe('unauthenticated');
    expect((await api.dataSource.query('SELECT count(*)::int AS n FROM split_project'))[0].n).toBe(before);
  });

  it('refuses settlement posting to app and platform keys (so to every agent), writing nothing', async () => {
    const acme = await partner();
    const as = (key: string) => ({ Authorization: `Bearer ${key}`, 'X-Organization-Id': acme.organizationId });
    const created = await request(api.server).post('/api/v2/split-projects').set(as(acme.key)).send(project).expect(201);
    const count = async () =>
      (await api.dataSource.query('SELECT (SELECT count(*) FROM settlement_run) + (SELECT count(*) FROM confirmation_challenge) AS n'))[0]
        .n;
    const before = await count();
    const posting = { periodId: '2026-01', periodEnd: new Date().toISOString(), revenue: '100.00', costs: '0' };
    for (const key of [acme.key, identity.platformKey]) {
      const refused = await request(api.server)
        .post(`/api/v2/split-projects/${created.body.project.id}/settlement-runs`)
        .set(as(key))
        .send(posting)
        .expect(403);
      expect(refused.body.detail).toBe('Not allowed: human_required.');
    }
    expect(await count()).toBe(before);
  });
});
