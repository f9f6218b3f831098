import request from 'supertest';
import { sampleScenario } from './support/sample-scenario';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

let identity: RealIdentity;
let api: RunningStandardsApi;

async function identityCall(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${identity.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${identity.platformKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** An organization and an app key acting for it, made by the operator through identity's API. */
async function partner(): Promise<{ organizationId: string; key: string }> {
  const organization = await identityCall('POST', '/v1/organizations', { name: 'Partner' });
  const issued = await identityCall('POST', '/v1/keys', { name: 'partner', class: 'app', organizationId: organization['id'] });
  return { organizationId: organization['id'] as string, key: issued['secret'] as string };
}

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
