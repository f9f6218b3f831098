import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startIdentity, SERVICE_TOKEN, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  identity = await startIdentity({ RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000' });
});
afterAll(() => identity.close());

/** Every answer a route gives that no cache may keep: a secret, an organization's or a person's data, an error. */
interface Answer {
  what: string;
  send: () => request.Test;
  status: number;
}

async function answers(): Promise<Answer[]> {
  const platform = bearer(identity.platformKey);
  const partner = await identity.newAppKey({ maxApps: 10 });
  const { key: registryKey, registryId } = await identity.newRegistry();
  const user = await request(identity.server)
    .post('/v1/users')
    .set(bearer(registryKey))
    .send({
      registryId,
      externalId: `ext-${randomBytes(4).toString('hex')}`,
      email: `u-${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: true,
      displayName: 'Ana Lima',
      locale: 'en',
    })
    .expect(201);
  const endpoint = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set(bearer(partner.secret))
    .send({ url: 'https://hooks.example/in', eventTypes: ['app.registered'] })
    .expect(201);
  const waiting = await request(identity.server)
    .post('/v1/waitlist')
    .send({
      organizationName: `Acme ${randomBytes(4).toString('hex')}`,
      contactName: 'Ada',
      contactEmail: 'ada@acme.example',
      useCase: 'A member portal.',
    })
    .expect(201);
  const endpointPath = `/v1/webhook-endpoints/${endpoint.body.endpoint.id}`;
  return [
    {
      what: 'an issued key',
      send: () =>
        request(identity.server).post('/v1/keys').set(platform).send({ name: 'k', class: 'app', organizationId: partner.organizationId }),
      status: 201,
    },
    {
      what: 'a rotated key',
      send: () => request(identity.server).post(`/v1/keys/${partner.key.id}/rotate`).set(platform).send({}),
      status: 200,
    },
    {
      what: 'an approval issuing a key',
      send: () => request(identity.server).post(`/v1/waitlist/${waiting.body.id}/approve`).set(platform).send({}),
      status: 200,
    },
    {
      what: "a registered app's client secret",
      send: () =>
        request(identity.server)
          .post('/v1/apps')
          .set(bearer(partner.secret))
          .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] }),
      status: 201,
    },
    {
      what: "a webhook endpoint's secret",
      send: () =>
        request(identity.server)
          .post('/v1/webhook-endpoints')
          .set(bearer(partner.secret))
          .send({ url: 'https://hooks.example/two', eventTypes: ['app.deleted'] }),
      status: 201,
    },
    {
      what: "a webhook endpoint's rotated secret",
      send: () => request(identity.server).post(`${endpointPath}/rotate-secret`).set(bearer(partner.secret)).send({}),
      status: 200,
    },
    {
      what: 'a password-setup link',
      send: () => request(identity.server).post(`/v1/users/${user.body.id}/password-setup`).set(bearer(registryKey)).send({}),
      status: 201,
    },
    {
      what: 'a decision',
      send: () =>
        request(identity.server)
          .post('/v1/decisions')
          .set(bearer(SERVICE_TOKEN))
          .send({
            credential: { kind: 'api_key', value: partner.secret },
            action: 'split-project:draft',
            resource: { organizationId: partner.organizationId, projectId: 'p-1' },
          }),
      status: 200,
    },
    { what: 'the keys', send: () => request(identity.server).get('/v1/keys').set(platform), status: 200 },
    {
      what: 'the users of a registry',
      send: () => request(identity.server).get(`/v1/users?registryId=${registryId}`).set(bearer(registryKey)),
      status: 200,
    },
    { what: 'a user', send: () => request(identity.server).get(`/v1/users/${user.body.id}`).set(bearer(registryKey)), status: 200 },
    {
      what: 'role bindings',
      send: () => request(identity.server).get(`/v1/role-bindings?uid=${user.body.uid}`).set(platform),
      status: 200,
    },
    { what: 'the audit log', send: () => request(identity.server).get('/v1/audit').set(platform), status: 200 },
    {
      what: "an endpoint's deliveries",
      send: () => request(identity.server).get(`${endpointPath}/deliveries`).set(bearer(partner.secret)),
      status: 200,
    },
    { what: 'an unauthenticated request refused', send: () => request(identity.server).get('/v1/keys'), status: 401 },
    {
      what: 'a missing user',
      send: () => request(identity.server).get('/v1/users/01900000-0000-7000-8000-000000000000').set(platform),
      status: 404,
    },
    {
      what: 'a refused token exchange',
      send: () => request(identity.server).post('/v1/token-exchange').set(bearer(SERVICE_TOKEN)).send({ grant_type: 'password' }),
      status: 400,
    },
  ];
}

describe('what caches may keep', () => {
  it('answers every secret, every organization’s or person’s data and every error with Cache-Control: no-store', async () => {
    const stored: string[] = [];
    for (const answer of await answers()) {
      const response = await answer.send();
      expect([answer.what, response.status]).toEqual([answer.what, answer.status]);
      if (response.headers['cache-control'] !== 'no-store') stored.push(`${answer.what}: ${response.headers['cache-control']}`);
    }
    expect(stored).toEqual([]);
  });

  it('shows no answer of the OpenID Provider in a frame: its error page carries every page header, its sign-out form keeps its script', async () => {
    const error = await request(identity.server).get('/oidc/auth?client_id=no-such-client&response_type=code&scope=openid').expect(400);
    expect(error.headers['content-type']).toMatch(/^text\/html/);
    expect(error.headers).toMatchObject({ 'cache-control': 'no-store', 'x-frame-options': 'DENY' });
    expect(error.headers['content-security-policy']).toContain("default-src 'none'");
    expect(error.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Without a session the provider posts its own sign-out form, submitted by its inline script: framing is refused, the script is not.
    const signOut = await request(identity.server).get('/oidc/session/end').expect(200);
    expect(signOut.text).toContain('<script>');
    expect(signOut.headers).toMatchObject({
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
    });
  });
});
