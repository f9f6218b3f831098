import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { setPasswordThroughLink, signInWithForms } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// A person signs in through identity's OpenID Provider (the built artifact in a child process) and
// calls the standards API with the access token: a human subject, the only kind a formal write allows.
const PASSWORD = 'a long and unusual passphrase';

let identity: RealIdentity;
let api: RunningStandardsApi;
let callback: Server;
let redirectUri: string;
let partner: { organizationId: string; key: string; clientId: string; clientSecret: string };

async function identityCall(key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${identity.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A user of the partner's app with a password (set through the setup link) and these roles in the partner's organization. */
async function userWithRoles(roles: string[]): Promise<{ uid: string; email: string }> {
  const email = `person-${randomBytes(4).toString('hex')}@example.com`;
  const app = ((await identityCall(partner.key, 'GET', '/v1/apps'))['items'] as { registryId: string }[])[0]!;
  const user = await identityCall(partner.key, 'POST', '/v1/users', {
    registryId: app.registryId,
    externalId: `ext-${randomBytes(4).toString('hex')}`,
    email,
    emailVerified: true,
    displayName: 'Mei',
    locale: 'en',
  });
  const setup = await identityCall(partner.key, 'POST', `/v1/users/${user['id'] as string}/password-setup`);
  await setPasswordThroughLink(setup['setupUrl'] as string, PASSWORD);
  for (const role of roles) {
    await identityCall(identity.platformKey, 'POST', '/v1/role-bindings', {
      uid: user['uid'],
      role,
      organizationId: partner.organizationId,
    });
  }
  return { uid: user['uid'] as string, email };
}

/** Signs the user in through the login and consent pages; answers the access token for the standards API. */
async function signIn(email: string): Promise<string> {
  return signInWithForms(
    { identityUrl: identity.url, clientId: partner.clientId, clientSecret: partner.clientSecret, redirectUri },
    email,
    PASSWORD,
  );
}

beforeAll(async () => {
  identity = await startRealIdentity();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: identity.serviceToken });
  callback = createServer((_req, res) => res.end('back'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const organization = await identityCall(identity.platformKey, 'POST', '/v1/organizations', { name: 'Studio' });
  const key = await identityCall(identity.platformKey, 'POST', '/v1/keys', {
    name: 'studio app',
    class: 'app',
    organizationId: organization['id'],
  });
  const registered = await identityCall(key['secret'] as string, 'POST', '/v1/apps', {
    name: 'Studio Portal',
    type: 'Traditional',
    redirectUris: [redirectUri],
  });
  partner = {
    organizationId: organization['id'] as string,
    key: key['secret'] as string,
    clientId: (registered['app'] as { clientId: string }).clientId,
    clientSecret: registered['clientSecret'] as string,
  };
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => callback?.close(resolve));
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

  it('refuses activation to a signed-in user without an approving role, and a forged token, writing nothing', async () => {
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
      .expect(403);
    expect(await count()).toBe(before);
  });
});
