import request from 'supertest';
import { startSigninScene, type SigninScene } from './support/signin-scene';
import { FormBrowser, type PartnerApp, type SigninIdentity } from './support/signin-fixture';

// Bytes no form would send, from the outside: each must be a 4xx that changes nothing, never a 500.
let scene: SigninScene;
let identity: SigninIdentity;
let callback: SigninScene['callback'];
let app: PartnerApp;

beforeAll(async () => {
  scene = await startSigninScene({ RATE_LIMIT_WAITLIST_PER_HOUR: '1000' });
  ({ identity, callback, app } = scene);
}, 60_000);
afterAll(() => scene?.close());

const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });
const partner = () => ({ Authorization: `Bearer ${app.appKey}` });
const deeplyNested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const counts = async () =>
  (
    await identity.dataSource.query(
      'SELECT (SELECT count(*) FROM waitlist_request)::int AS waitlist, (SELECT count(*) FROM user_mirror)::int AS users',
    )
  )[0];
const waitlistRequest = {
  organizationName: 'Acme',
  contactName: 'Li Wei',
  contactEmail: 'li.wei@example.com',
  useCase: 'Revenue splits for a studio',
};

describe('identity refuses hostile input with a 4xx and writes nothing', () => {
  it('refuses JSON nested 2000 deep, on the anonymous waitlist too', async () => {
    const before = await counts();
    for (const [path, headers] of [
      ['/v1/waitlist', {}],
      ['/v1/users', partner()],
      ['/v1/sync', partner()],
    ] as const) {
      const response = await request(identity.server)
        .post(path)
        .set(headers)
        .set('content-type', 'application/json')
        .send(`{"a":${deeplyNested(2000)}}`);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].message).toContain('deeper than');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses NUL and unpaired surrogates in a body, a path and a query', async () => {
    const before = await counts();
    await request(identity.server)
      .post('/v1/waitlist')
      .send({ ...waitlistRequest, contactName: 'Li\u0000Wei' })
      .expect(400);
    const user = {
      registryId: app.registryId,
      externalId: 'x-1',
      email: 'li\ud800@example.com',
      emailVerified: true,
      displayName: 'Li',
      locale: 'en',
    };
    const surrogate = await request(identity.server).post('/v1/users').set(partner()).send(user).expect(400);
    expect(surrogate.body.errors[0]).toMatchObject({ field: 'email' });
    await request(identity.server)
      .post('/v1/users')
      .set(partner())
      .send({ ...user, email: 'li@example.com', externalId: 'x\u0000' })
      .expect(400);
    await request(identity.server).get('/v1/users/%00').set(partner()).expect(400);
    await request(identity.server).get(`/v1/users?registryId=${app.registryId}%00`).set(partner()).expect(400);
    await request(identity.server).get('/v1/apps/%E0%A4%A').set(partner()).expect(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses impossible dates', async () => {
    for (const from of ['2026-02-30', '2026-02-30T10:00:00Z', '2026-13-01', '2025-02-29']) {
      const response = await request(identity.server).get(`/v1/audit?from=${from}`).set(platform()).expect(400);
      expect(response.body.errors[0].field).toBe('from');
    }
    await request(identity.server).get('/v1/audit?from=2024-02-29T00:00:00Z').set(platform()).expect(200);
  });

  it('refuses NUL at the OpenID Provider: in the authorization request and in a token request', async () => {
    const auth = await request(identity.server).get(`/oidc/auth?client_id=${app.clientId}%00&response_type=code&scope=openid`);
    expect(auth.status).toBe(400);
    const token = await request(identity.server)
      .post('/oidc/token')
      .auth(app.clientId, app.clientSecret)
      .type('form')
      .send('grant_type=authorization_code&code=abc%00def&redirect_uri=https%3A%2F%2Fexample.com');
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.status).toBeLessThan(500);
    const unknownClient = await request(identity.server)
      .post('/oidc/token')
      .type('form')
      .send(`grant_type=client_credentials&client_id=a%00b&client_secret=x`);
    expect(unknownClient.status).toBeGreaterThanOrEqual(400);
    expect(unknownClient.status).toBeLessThan(500);
  });

  it('answers a JSON body sent as text or as a form 415, and creates nothing; the sign-in form is still a form', async () => {
    const before = await counts();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const refused = await request(identity.server).post('/v1/waitlist').set('content-type', type).send(JSON.stringify(waitlistRequest));
      expect(refused.status).toBe(415);
      expect(refused.body.code).toBe('unsupported_media_type');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses NUL in the sign-in form', async () => {
    const { url } = await signinUrl();
    const browser = new FormBrowser();
    const login = await browser.follow(url, callback.redirectUri);
    const refused = await browser.submit(login, { email: 'li\u0000@example.com', password: 'whatever it is' }, '/login');
    expect(refused.status).toBe(400);
  });
});

async function signinUrl(): Promise<{ url: string }> {
  const params = new URLSearchParams({
    client_id: app.clientId,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: callback.redirectUri,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return { url: `${identity.issuer}/auth?${params}` };
}
