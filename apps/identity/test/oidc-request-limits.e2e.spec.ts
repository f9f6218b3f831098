import { DataSource } from 'typeorm';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// The provider's requests that store something for anyone who asks (a registration, the start of a
// sign-in or a logout) spend a per-client-IP bucket first; a refused one stores nothing.
const LIMIT = 3;
let scene: SigninScene;
let authorizationUrl: URL;
beforeAll(async () => {
  scene = await startSigninScene({
    OIDC_REGISTRATION: 'open',
    OIDC_REGISTRATIONS_PER_IP_PER_HOUR: String(LIMIT),
    OIDC_FLOWS_PER_IP_PER_MINUTE: String(LIMIT),
    // Each test is its own client IP, given as a proxy in front would give it.
    TRUSTED_PROXY_HOPS: '1',
  });
  const config = await scene.flow.relyingParty(scene.app);
  authorizationUrl = (await scene.flow.authorizationUrl(config)).url;
});
afterAll(() => scene?.close());

async function storedCount(model: string): Promise<number> {
  const rows: { count: string }[] = await scene.identity.app
    .get(DataSource)
    .query('SELECT count(*) AS count FROM oidc_model WHERE model = $1', [model]);
  return Number(rows[0]!.count);
}

function from(ip: string, url: string | URL, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init, headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-For': ip } });
}

function register(ip: string): Promise<Response> {
  return from(ip, `${scene.identity.issuer}/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
}

describe('the OpenID Provider, per client IP', () => {
  it('registers at most OIDC_REGISTRATIONS_PER_IP_PER_HOUR clients for one IP; the next is refused and stores nothing', async () => {
    const before = await storedCount('Client');
    for (let i = 0; i < LIMIT; i++) expect((await register('198.51.100.1')).status).toBe(201);
    expect(await storedCount('Client')).toBe(before + LIMIT);

    const refused = await register('198.51.100.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('Retry-After') });
    expect(await storedCount('Client')).toBe(before + LIMIT);

    // Another address has its own bucket.
    expect((await register('198.51.100.2')).status).toBe(201);
    expect(await storedCount('Client')).toBe(before + LIMIT + 1);
  });

  it('starts at most OIDC_FLOWS_PER_IP_PER_MINUTE sign-ins and logouts for one IP; the next is a page, and stores nothing', async () => {
    const ip = '198.51.100.3';
    const interactions = await storedCount('Interaction');
    for (let i = 0; i < LIMIT; i++) {
      const started = await from(ip, authorizationUrl);
      expect(started.status).toBe(303);
      expect(started.headers.get('location')).toContain('/signin/');
    }
    expect(await storedCount('Interaction')).toBe(interactions + LIMIT);

    const refused = await from(ip, authorizationUrl);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('Too many sign-in attempts from your network. Try again in 1 minute.');
    expect(await storedCount('Interaction')).toBe(interactions + LIMIT);

    // A logout from the same address spends the same bucket: refused, and no session kept for its question.
    const sessions = await storedCount('Session');
    const logout = await from(ip, `${scene.identity.issuer}/session/end`, { headers: { 'Accept-Language': 'zh-Hans' } });
    expect(logout.status).toBe(429);
    expect(await logout.text()).toContain('来自您网络的登录尝试过多');
    expect(await storedCount('Session')).toBe(sessions);

    // The same logout from another address is asked, and its question kept.
    const asked = await from('198.51.100.4', `${scene.identity.issuer}/session/end`);
    expect(asked.status).toBe(200);
    expect(await storedCount('Session')).toBe(sessions + 1);
  });

  it('limits a path however its letters or trailing slash are written, and nothing that stores nothing', async () => {
    const ip = '198.51.100.5';
    for (let i = 0; i < LIMIT; i++) await from(ip, `${scene.identity.issuer}/Session/End/`);
    expect((await from(ip, `${scene.identity.issuer}/session/end`)).status).toBe(429);
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      for (let i = 0; i <= LIMIT; i++) expect((await from(ip, `${scene.identity.issuer}${path}`)).status).toBe(200);
    }
  });
});
