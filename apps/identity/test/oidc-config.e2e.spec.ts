import request from 'supertest';
import { loadConfig } from '@stdreg/server-kit';
import { IdentityConfig } from '../src/platform/config/identity.config';
import { generateSigningKey } from '../src/platform/secrets/oidc-secrets';
import { startIdentity, type RunningIdentity } from './support/identity-app';
import { signinFlow } from './support/signin-flow';
import {
  FormBrowser,
  PASSWORD,
  createMirrorRecord,
  type Page,
  createUserWithPassword,
  registerPartnerApp,
  signinEnv,
  startCallbackServer,
  startSigninIdentity,
  type SigninIdentity,
} from './support/signin-fixture';

describe('the OpenID Provider behind a proxy', () => {
  let identity: RunningIdentity;
  beforeAll(async () => {
    identity = await startIdentity({ ...signinEnv('https://id.example.com/oidc', [generateSigningKey('k1')]), TRUSTED_PROXY_HOPS: '1' });
  });
  afterAll(async () => {
    await identity?.close();
  });

  it('answers at the issuer path with endpoint URLs on the public scheme and host the proxy forwards', async () => {
    const { body } = await request(identity.server)
      .get('/oidc/.well-known/openid-configuration')
      .set({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'id.example.com' })
      .expect(200);
    expect(body.issuer).toBe('https://id.example.com/oidc');
    expect(body.authorization_endpoint).toBe('https://id.example.com/oidc/auth');
    expect(body.jwks_uri).toBe('https://id.example.com/oidc/jwks');
  });

  it('sends no entity tag on its discovery documents and keys: a tag in If-None-Match changes nothing, HEAD agrees with GET', async () => {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'id.example.com' };
    const get = (path: string) => request(identity.server).get(path).set(forwarded);
    for (const path of ['/oidc/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/oidc', '/oidc/jwks']) {
      const ok = await get(path).expect(200);
      expect([path, ok.headers['etag'], ok.headers['last-modified']]).toEqual([path, undefined, undefined]);
      const conditional = await get(path).set({ 'If-None-Match': '"x", W/"y"', 'If-Modified-Since': new Date().toUTCString() });
      expect([path, conditional.status, conditional.body]).toEqual([path, 200, ok.body]);
      const head = await request(identity.server).head(path).set(forwarded).expect(200);
      expect([path, head.headers['content-length'], head.headers['cache-control'], head.text]).toEqual([
        path,
        ok.headers['content-length'],
        ok.headers['cache-control'],
        undefined,
      ]);
    }
  });

  it('answers RFC 8414’s metadata outside the issuer path with the same public URLs', async () => {
    const { body } = await request(identity.server)
      .get('/.well-known/oauth-authorization-server/oidc')
      .set({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'id.example.com' })
      .expect(200);
    expect(body.issuer).toBe('https://id.example.com/oidc');
    expect(body.authorization_endpoint).toBe('https://id.example.com/oidc/auth');
    expect(body.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('sends browsers to the sign-in pages on the issuer’s origin', async () => {
    const { body: app } = await request(identity.server)
      .post('/v1/apps')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ name: 'Console', type: 'Traditional', redirectUris: ['https://console.example.com/callback'] })
      .expect(201);
    const response = await request(identity.server)
      .get('/oidc/auth')
      .query({
        client_id: app.app.clientId,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: 'https://console.example.com/callback',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })
      .set({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'id.example.com' })
      .expect(303);
    expect(response.headers['location']).toMatch(/^https:\/\/id\.example\.com\/v1\/signin\/[A-Za-z0-9_-]+$/);
  });
});

describe('the sign-in cookies behind an https issuer', () => {
  let identity: RunningIdentity;
  let local: string;
  beforeAll(async () => {
    identity = await startIdentity({ ...signinEnv('https://id.example.com/oidc', [generateSigningKey('k1')]), TRUSTED_PROXY_HOPS: '1' });
    await new Promise<void>((resolve) => identity.server.listen(0, '127.0.0.1', resolve));
    local = `http://127.0.0.1:${(identity.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await identity?.close();
  });

  // ASVS 4.0.3 V3.4.1 (Secure), V3.4.2 (HttpOnly), V3.4.3 (SameSite), V3.4.4 (the __Host- prefix).
  it('keeps the session in a __Host- cookie, and sets every sign-in cookie Secure and HttpOnly', async () => {
    const redirectUri = 'https://portal.example/callback';
    const app = await registerPartnerApp(identity, [redirectUri]);
    const user = await createMirrorRecord(identity, app);
    // The proxy in front terminates TLS: the browser's https reaches identity as http with X-Forwarded-Proto.
    const browser = new FormBrowser({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'id.example.com' });
    const here = (url: string) => url.replace('https://id.example.com', local);
    const cookies: string[] = [];
    const visit = async (page: Promise<Page>) => {
      const answered = await page;
      cookies.push(...answered.headers.getSetCookie());
      return answered;
    };
    const { body: setup } = await request(identity.server)
      .post(`/v1/users/${user.id}/password-setup`)
      .set('Authorization', `Bearer ${app.appKey}`)
      .expect(201);
    const setupPage = await visit(browser.get(here(setup.setupUrl as string)));
    expect((await visit(browser.submit(setupPage, { password: PASSWORD, confirm: PASSWORD }))).status).toBe(200);

    const authorize = async (extra: Record<string, string> = {}) =>
      visit(
        browser.get(
          `${local}/oidc/auth?${new URLSearchParams({
            client_id: app.clientId,
            response_type: 'code',
            scope: 'openid',
            redirect_uri: redirectUri,
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'S256',
            ...extra,
          })}`,
        ),
      );
    const started = await authorize();
    const login = await visit(browser.get(here(started.location!)));
    const signedIn = await visit(browser.submit(login, { email: user.email, password: PASSWORD }, '/login'));
    expect(signedIn.status).toBe(303);
    await visit(browser.get(here(signedIn.location!)));

    const names = cookies.map((line) => line.split('=')[0]);
    expect(names).toEqual(
      expect.arrayContaining(['stdreg_csrf', '_interaction', '_interaction_resume', '__Host-session', '__Host-session.sig']),
    );
    expect(names).not.toContain('_session');
    for (const line of cookies) {
      const attributes = line.toLowerCase().split(/;\s*/);
      expect(attributes).toContain('secure');
      expect(attributes).toContain('httponly');
      expect(attributes.some((attribute) => attribute.startsWith('samesite='))).toBe(true);
    }
    for (const line of cookies.filter((cookie) => cookie.startsWith('__Host-'))) {
      const attributes = line.toLowerCase().split(/;\s*/);
      expect(attributes).toContain('path=/');
      expect(attributes).toContain('samesite=lax');
      expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    }
    // The cookie holds the sign-in: a silent request lacks only the consent, never asked for here.
    const silent = await authorize({ prompt: 'none' });
    expect(new URL(silent.location!).searchParams.get('error')).toBe('consent_required');
  });
});

describe('sign-in configuration', () => {
  it('refuses an issuer without a path, or with a trailing slash, naming the variable', () => {
    for (const issuer of ['https://id.example.com', 'https://id.example.com/oidc/', 'https://id.example.com/oidc?x=1']) {
      expect(() => loadConfig(IdentityConfig, { OIDC_ISSUER: issuer })).toThrow(/OIDC_ISSUER/);
    }
  });

  it('refuses malformed sign-in secrets, naming the variable', () => {
    expect(() => loadConfig(IdentityConfig, { OIDC_JWKS: 'not json' })).toThrow(/OIDC_JWKS/);
    expect(() => loadConfig(IdentityConfig, { OIDC_CLIENT_SECRET_KEY: 'short' })).toThrow(/OIDC_CLIENT_SECRET_KEY/);
    expect(() => loadConfig(IdentityConfig, { OIDC_COOKIE_KEYS: 'too-short' })).toThrow(/OIDC_COOKIE_KEYS/);
  });
});

describe('password checks per client IP', () => {
  let identity: SigninIdentity;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  beforeAll(async () => {
    identity = await startSigninIdentity({ SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: '3', TRUSTED_PROXY_HOPS: '1' });
    callback = await startCallbackServer();
  });
  afterAll(async () => {
    await callback?.close();
    await identity?.close();
  });

  it('stops one client trying many accounts, with the wait on the page, before any password is checked', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    const flow = signinFlow(identity, callback.redirectUri);
    const browser = new FormBrowser();
    const login = await browser.follow((await flow.authorizationUrl(await flow.relyingParty(app))).url.toString(), callback.redirectUri);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect((await browser.submit(login, { email, password: PASSWORD }, '/login')).status).toBe(401);
    }
    const throttled = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.text).toContain('Too many sign-in attempts from your network. Try again in 1 minute.');
    const audited = await identity.dataSource.query(`SELECT 1 FROM audit_entry WHERE action = 'signin.password' AND target = $1`, [
      user.uid,
    ]);
    expect(audited).toHaveLength(0);
  });

  it("keeps each client's attempts apart: one address using up its own leaves another's password checked", async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    const flow = signinFlow(identity, callback.redirectUri);
    const loginAt = async (browser: FormBrowser) =>
      browser.follow((await flow.authorizationUrl(await flow.relyingParty(app))).url.toString(), callback.redirectUri);
    const noisy = new FormBrowser({ 'X-Forwarded-For': '203.0.113.7' });
    const noisyLogin = await loginAt(noisy);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect((await noisy.submit(noisyLogin, { email, password: PASSWORD }, '/login')).status).toBe(401);
    }
    expect((await noisy.submit(noisyLogin, { email: 'd@example.com', password: PASSWORD }, '/login')).status).toBe(429);
    const other = new FormBrowser({ 'X-Forwarded-For': '198.51.100.20' });
    const wrong = await other.submit(await loginAt(other), { email: user.email, password: `${PASSWORD}-wrong` }, '/login');
    expect(wrong.status).toBe(401);
  });

  it('counts an IPv6 client by its /64, however many of its addresses it uses, and an IPv4-mapped address as the IPv4 one', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const flow = signinFlow(identity, callback.redirectUri);
    const attemptFrom = async (address: string, email: string) => {
      const browser = new FormBrowser({ 'X-Forwarded-For': address });
      const login = await browser.follow((await flow.authorizationUrl(await flow.relyingParty(app))).url.toString(), callback.redirectUri);
      return (await browser.submit(login, { email, password: PASSWORD }, '/login')).status;
    };
    for (const [address, email] of [
      ['2001:db8:7:1::1', 'a@example.com'],
      ['2001:db8:7:1:ffff:2:3:4', 'b@example.com'],
      ['2001:DB8:7:1:0:0:0:A', 'c@example.com'],
    ] as const) {
      expect(await attemptFrom(address, email)).toBe(401);
    }
    expect(await attemptFrom('2001:db8:7:1:abcd::9', 'd@example.com')).toBe(429);
    expect(await attemptFrom('2001:db8:7:2::1', 'd@example.com')).toBe(401);

    for (const email of ['e@example.com', 'f@example.com', 'g@example.com']) expect(await attemptFrom('198.51.100.30', email)).toBe(401);
    expect(await attemptFrom('::ffff:198.51.100.30', 'h@example.com')).toBe(429);
  });
});
