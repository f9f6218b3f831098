import request from 'supertest';
import { sampleScenario } from './support/sample-scenario';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startSignedInPartner, type SignedInPartner } from '@stdreg/server-kit/testing';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// identity wants a formal write's sign-in no older than FORMAL_WRITE_MAX_AGE_SECONDS (small here);
// standards-api answers an older one with RFC 9470's step-up challenge.
const MAX_AGE = 5;

let identity: RealIdentity;
let api: RunningStandardsApi;
let partner: SignedInPartner;

beforeAll(async () => {
  identity = await startRealIdentity({ env: { FORMAL_WRITE_MAX_AGE_SECONDS: String(MAX_AGE) } });
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: identity.serviceToken });
  partner = await startSignedInPartner(identity);
}, 120_000);
afterAll(async () => {
  await partner?.close();
  await api?.close();
  await identity?.stop();
});

describe('a formal write with a sign-in older than identity allows', () => {
  it('is answered 401 with the RFC 9470 challenge, writing nothing; after a fresh sign-in with max_age it succeeds', async () => {
    const owner = await partner.userWithRoles(['project-owner']);
    const as = (token: string) => ({ Authorization: `Bearer ${token}`, 'X-Organization-Id': partner.organizationId });
    const stale = as(await partner.signIn(owner.email));
    const created = await request(api.server)
      .post('/api/v2/split-projects')
      .set(stale)
      .send({ name: 'Step-up studio', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    const activate = `/api/v2/split-projects/${created.body.project.id as string}/activate`;
    const scenarioId = created.body.scenario.id as string;
    const challenges = async () => (await api.dataSource.query('SELECT count(*)::int AS n FROM confirmation_challenge'))[0].n as number;

    await new Promise((resolve) => setTimeout(resolve, (MAX_AGE + 1.5) * 1000));
    const before = await challenges();
    const refused = await request(api.server).post(activate).set(stale).send({ scenarioId }).expect(401);
    expect(refused.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_user_authentication", error_description="A more recent sign-in is required for this formal write", max_age=${MAX_AGE}`,
    );
    expect(refused.body).toMatchObject({
      status: 401,
      code: 'unauthenticated',
      domainCode: 'authorization.authentication_too_old',
      detail: expect.stringContaining(`within the last ${MAX_AGE} seconds`),
    });
    expect(await challenges()).toBe(before);
    // Drafting asks for no recent sign-in.
    await request(api.server)
      .get(`/api/v2/split-projects/${created.body.project.id as string}`)
      .set(stale)
      .expect(200);

    const fresh = as(await partner.signIn(owner.email, { max_age: String(MAX_AGE) }));
    const challenge = await request(api.server).post(activate).set(fresh).send({ scenarioId }).expect(428);
    const activated = await request(api.server)
      .post(activate)
      .set(fresh)
      .send({ scenarioId, confirmationToken: challenge.body.confirmationToken })
      .expect(201);
    expect(activated.body).toMatchObject({ version: 1, createdBy: `human:${owner.uid}` });
  });
});
