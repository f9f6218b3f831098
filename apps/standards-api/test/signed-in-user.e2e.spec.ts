import request from 'supertest';
import { sampleScenario } from './support/sample-scenario';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startSignedInPartner, type SignedInPartner } from '@stdreg/server-kit/testing';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// A person signs in through identity's OpenID Provider (the built artifact in a child process) and
// calls the standards API with the access token: a human subject, the only kind a formal write allows.

let identity: RealIdentity;
let api: RunningStandardsApi;
let partner: SignedInPartner;

const userWithRoles = (roles: string[]) => partner.userWithRoles(roles);
const signIn = (email: string) => partner.signIn(email);

beforeAll(async () => {
  identity = await startRealIdentity();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: identity.serviceToken });
  partner = await startSignedInPartner(identity);
}, 120_000);
afterAll(async () => {
  await partner?.close();
  await api?.close();
  await identity?.stop();
});

const project = {
  name: 'Signed-in studio',
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
};

describe('a signed-in user at the standards API', () => {
  it('drafts and activates (a formal write, confirmed in two steps) with an approving role, as a human', async () => {
    const owner = await userWithRoles(['project-owner']);
    const as = { Authorization: `Bearer ${await signIn(owner.email)}`, 'X-Organization-Id': partner.organizationId };
    const created = await request(api.server).post('/api/v2/split-projects').set(as).send(project).expect(201);
    expect(created.body.project.createdBy).toBe(`human:${owner.uid}`);
    const projectId = created.body.project.id as string;
    const scenarioId = created.body.scenario.id as string;
    const challenge = await request(api.server)
      .post(`/api/v2/split-projects/${projectId}/activate`)
      .set(as)
      .send({ scenarioId })
      .expect(428);
    const activated = await request(api.server)
      .post(`/api/v2/split-projects/${projectId}/activate`)
      .set(as)
      .send({ scenarioId, confirmationToken: challenge.body.confirmationToken })
      .expect(201);
    expect(activated.body).toMatchObject({ version: 1, createdBy: `human:${owner.uid}` });
  });

  it('refuses activation to a signed-in user without an approving role (403), and a forged token (401), writing nothing', async () => {
    const modeller = await userWithRoles(['scenario-modeller']);
    const as = { Authorization: `Bearer ${await signIn(modeller.email)}`, 'X-Organization-Id': partner.organizationId };
    const created = await request(api.server).post('/api/v2/split-projects').set(as).send(project).expect(201);
    const count = async () => (await api.dataSource.query('SELECT count(*)::int AS n FROM confirmation_challenge'))[0].n as number;
    const before = await count();
    const refused = await request(api.server)
      .post(`/api/v2/split-projects/${created.body.project.id}/activate`)
      .set(as)
      .send({ scenarioId: created.body.scenario.id })
      .expect(403);
    expect(refused.body.detail).toBe('Not allowed: role_required.');
    const forged = `${as.Authorization.split('.').slice(0, 2).join('.')}.${'A'.repeat(342)}`;
    await request(api.server)
      .post(`/api/v2/split-projects/${created.body.project.id}/activate`)
      .set({ ...as, Authorization: forged })
      .send({ scenarioId: created.body.scenario.id })
      .expect(401);
    expect(await count()).toBe(before);
  });
});
