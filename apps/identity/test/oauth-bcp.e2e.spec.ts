import * as oidc from 'openid-client';
import { API_AUDIENCE, FormBrowser, PASSWORD, createUserWithPassword, type SignedUpUser } from './support/signin-fixture';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// RFC 9700 (OAuth 2.0 Security BCP) and the MCP 2025-11-25 authorization spec's security considerations, the items
// no other spec of identity shows; docs/decisions.md, "identity against the OAuth 2.0 Security BCP", has the table.
const MCP_RESOURCE = 'http://127.0.0.1:3903/mcp';
const AGENT_SCOPES = 'registry:read projects:read projects:draft';

let scene: SigninScene;
let person: SignedUpUser;
beforeAll(async () => {
  scene = await startSigninScene({ OIDC_MCP_RESOURCE: MCP_RESOURCE, OIDC_REGISTRATION: 'open' });
  person = await createUserWithPassword(scene.identity, scene.app);
});
afterAll(() => scene?.close());

async function register(metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${scene.identity.issuer}/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function agentClient(redirectUris: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const registered = await register({ client_name: 'Desk Agent', redirect_uris: redirectUris, ...extra });
  expect(registered.status).toBe(201);
  return registered.body['client_id'] as string;
}

async function authorizeUrl(clientId: string, redirectUri: string, extra: Record<string, string> = {}): Promise<URL> {
  const url = new URL(`${scene.identity.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: AGENT_SCOPES,
    resource: MCP_RESOURCE,
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: 'st-1',
    ...extra,
  }).toString();
  return url;
}

function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

describe('RFC 9700 §2.1 and §4.1: redirect URIs are matched exactly, the loopback port aside for native agents', () => {
  it('holds a partner app to its registered loopback port', async () => {
    const registered = new URL(scene.callback.redirectUri);
    const otherPort = new URL(scene.callback.redirectUri);
    otherPort.port = String(Number(registered.port) + 1);
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config, { redirect_uri: otherPort.toString() });
    const response = await fetch(authorization.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('lets a native agent use any loopback port, but never another path, host or scheme', async () => {
    const clientId = await agentClient(['http://127.0.0.1/callback']);
    const anyPort = await fetch(await authorizeUrl(clientId, 'http://127.0.0.1:49152/callback'), { redirect: 'manual' });
    expect(anyPort.status).toBe(303);
    expect(new URL(anyPort.headers.get('location')!, scene.identity.origin).pathname).toMatch(/^\/v1\/signin\//);
    for (const redirectUri of [
      'http://127.0.0.1:49152/other',
      'http://localhost:49152/callback',
      'http://127.0.0.2:49152/callback',
      'https://127.0.0.1:49152/callback',
      'http://127.0.0.1:49152/callback?x=1',
    ]) {
      const refused = await fetch(await authorizeUrl(clientId, redirectUri), { redirect: 'manual' });
      expect({ redirectUri, status: refused.status, location: refused.headers.get('location') }).toEqual({
        redirectUri,
        status: 400,
        location: null,
      });
    }
  });

  it('holds an agent with an https redirect URI to it exactly, port included', async () => {
    const clientId = await agentClient(['https://agent.example/cb']);
    for (const redirectUri of ['https://agent.example:8443/cb', 'https://agent.example/cb/', 'https://AGENT.example/cb/x']) {
      const refused = await fetch(await authorizeUrl(clientId, redirectUri), { redirect: 'manual' });
      expect({ redirectUri, status: refused.status, location: refused.headers.get('location') }).toEqual({
        redirectUri,
        status: 400,
        location: null,
      });
    }
  });
});

describe('RFC 9700 §2.1.2 and §2.4: no implicit, hybrid or password grant', () => {
  it('refuses the implicit and hybrid response types', async () => {
    const config = await scene.flow.relyingParty(scene.app);
    for (const responseType of ['token', 'id_token', 'id_token token', 'code id_token', 'code token']) {
      const authorization = await scene.flow.authorizationUrl(config, { response_type: responseType, nonce: 'n-1' });
      const response = await fetch(authorization.url, { redirect: 'manual' });
      expect(response.status).toBe(303);
      // The error goes back in the fragment, as the response type asked would have; nothing is issued.
      const answer = new URL(response.headers.get('location')!);
      expect(`${answer.origin}${answer.pathname}`).toBe(scene.callback.redirectUri);
      const fields = new URLSearchParams(answer.hash.slice(1));
      expect({
        responseType,
        error: fields.get('error'),
        issued: ['code', 'access_token', 'id_token'].filter((f) => fields.has(f)),
      }).toEqual({
        responseType,
        error: 'unsupported_response_type',
        issued: [],
      });
    }
  });

  it('refuses the password and client credentials grants to partner apps and agents', async () => {
    const agent = await agentClient(['http://127.0.0.1/callback']);
    for (const grantType of ['password', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']) {
      for (const [client, headers] of [
        ['partner', { Authorization: basic(scene.app.clientId, scene.app.clientSecret) }],
        ['agent', {}],
      ] as const) {
        const response = await fetch(`${scene.identity.issuer}/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams({
            grant_type: grantType,
            username: person.email,
            password: PASSWORD,
            ...(client === 'agent' ? { client_id: agent } : {}),
          }),
        });
        expect({ grantType, client, status: response.status, body: await response.json() }).toMatchObject({
          grantType,
          client,
          status: 400,
          body: { error: 'unsupported_grant_type' },
        });
      }
    }
    const discovery = (await (await fetch(`${scene.identity.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery['grant_types_supported']).toEqual(['authorization_code', 'refresh_token']);
    expect(discovery['response_types_supported']).toEqual(['code']);
  });
});

describe('RFC 9700 §4.4 (RFC 9207): the authorization response names the issuer', () => {
  it('carries iss in the code response, in a denial and in an error before any sign-in', async () => {
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config);
    const callbackUrl = await scene.flow.signIn(authorization, person.email);
    expect(callbackUrl.searchParams.get('iss')).toBe(scene.identity.issuer);
    expect(callbackUrl.searchParams.get('state')).toBe(authorization.state);

    const browser = new FormBrowser();
    const another = await scene.flow.authorizationUrl(config);
    const login = await browser.follow(another.url.toString(), scene.callback.redirectUri);
    const afterLogin = await browser.submit(login, { email: person.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), scene.callback.redirectUri);
    const denied = await browser.submit(consent, { decision: 'deny' }, '/consent');
    const back = new URL((await browser.follow(new URL(denied.location!, denied.url).toString(), scene.callback.redirectUri)).url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(scene.identity.issuer);

    const withoutPkce = new URL((await scene.flow.authorizationUrl(config)).url);
    withoutPkce.searchParams.delete('code_challenge');
    const refused = new URL((await fetch(withoutPkce, { redirect: 'manual' })).headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('iss')).toBe(scene.identity.issuer);
    const discovery = (await (await fetch(`${scene.identity.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery['authorization_response_iss_parameter_supported']).toBe(true);
  });
});

describe('RFC 9700 §4.5: a code is redeemed only by its client, at its redirect URI, with its verifier', () => {
  it('refuses a code injected into another client or sent with another redirect URI', async () => {
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config);
    const code = (await scene.flow.signIn(authorization, person.email)).searchParams.get('code')!;
    const other = await agentClient([scene.callback.redirectUri]);
    const redeem = (headers: Record<string, string>, fields: Record<string, string>) =>
      fetch(`${scene.identity.issuer}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: authorization.verifier, ...fields }),
      });
    const byAgent = await redeem({}, { client_id: other, redirect_uri: scene.callback.redirectUri, resource: MCP_RESOURCE });
    expect(byAgent.status).toBe(400);
    expect(await byAgent.json()).toMatchObject({ error: 'invalid_grant' });
    const elsewhere = await redeem(
      { Authorization: basic(scene.app.clientId, scene.app.clientSecret) },
      { redirect_uri: `${scene.callback.redirectUri}/other`, resource: API_AUDIENCE },
    );
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('RFC 9700 §4.2: no credential leaves the sign-in pages in a Referer', () => {
  it('sends no-referrer with the login and consent pages and the provider’s error page', async () => {
    const config = await scene.flow.relyingParty(scene.app);
    const browser = new FormBrowser();
    const login = await browser.follow((await scene.flow.authorizationUrl(config)).url.toString(), scene.callback.redirectUri);
    expect(login.headers.get('referrer-policy')).toBe('no-referrer');
    const afterLogin = await browser.submit(login, { email: person.email, password: PASSWORD }, '/login');
    expect(afterLogin.status).toBe(303);
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), scene.callback.redirectUri);
    expect(consent.headers.get('referrer-policy')).toBe('no-referrer');
    const refused = await fetch(`${scene.identity.issuer}/auth?client_id=${scene.app.clientId}&redirect_uri=https://evil.example/`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

/** An agent's sign-in through the pages up to its consent page. */
async function agentConsentPage(clientId: string, redirectUri: string, extra: Record<string, string> = {}) {
  const browser = new FormBrowser();
  const verifier = oidc.randomPKCECodeVerifier();
  const url = await authorizeUrl(clientId, redirectUri, {
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    scope: `${AGENT_SCOPES} offline_access`,
    ...extra,
  });
  const login = await browser.follow(url.toString(), redirectUri);
  expect(login.status).toBe(200);
  const afterLogin = await browser.submit(login, { email: person.email, password: PASSWORD }, '/login');
  expect(afterLogin.status).toBe(303);
  const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
  expect(consent.text).toContain('name="decision" value="allow"');
  return { browser, consent, verifier };
}

describe('RFC 9700 §4.11.2 and §4.18, MCP "Open Redirection": no unattended redirect to a URI nobody vouches for', () => {
  it('shows an error at the authorization endpoint for a self-registered agent with an https redirect URI, with a link the person may follow', async () => {
    const clientId = await agentClient(['https://phish.example/cb']);
    const url = await authorizeUrl(clientId, 'https://phish.example/cb');
    url.searchParams.delete('code_challenge');
    const response = await fetch(url, { redirect: 'manual', headers: { 'Accept-Language': 'en' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const page = await response.text();
    expect(page).toContain('invalid_request');
    expect(page).toContain('phish.example');
    const link = /<a href="(https:\/\/phish\.example\/cb\?[^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    const back = new URL(link!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(back.searchParams.get('iss')).toBe(scene.identity.issuer);

    url.searchParams.set('response_mode', 'form_post');
    const posted = await fetch(url, { redirect: 'manual' });
    expect(posted.status).toBe(400);
    const postedPage = await posted.text();
    expect(postedPage).toContain('phish.example');
    expect(postedPage).not.toContain('<form');
  });

  it('still answers an agent on a loopback redirect URI by redirecting (a partner app: oidc-signin, PKCE)', async () => {
    const clientId = await agentClient(['http://127.0.0.1/callback']);
    const url = await authorizeUrl(clientId, 'http://127.0.0.1:49152/callback');
    url.searchParams.delete('code_challenge');
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('holds an agent’s post-logout redirect URIs to the rule of its redirect URIs', async () => {
    for (const uri of ['http://evil.example/bye', 'javascript:alert(1)', 'ftp://agent.example/']) {
      const refused = await register({ redirect_uris: ['https://agent.example/cb'], post_logout_redirect_uris: [uri] });
      expect({ uri, status: refused.status, error: refused.body['error'] }).toEqual({ uri, status: 400, error: 'invalid_client_metadata' });
    }
    const loopback = await register({ redirect_uris: ['http://127.0.0.1/cb'], post_logout_redirect_uris: ['http://127.0.0.1/bye'] });
    expect(loopback.status).toBe(201);
  });
});

describe('MCP "Localhost Redirect URI Risks": the consent page names where the code goes', () => {
  it('shows the redirect URI’s host, and warns when it is this computer', async () => {
    const clientId = await agentClient(['http://127.0.0.1/callback', 'https://desk.example/cb']);
    const { consent } = await agentConsentPage(clientId, scene.callback.redirectUri);
    expect(consent.text).toContain('127.0.0.1');
    expect(consent.text).toMatch(/class="warning"/);
    const onTheWeb = await agentConsentPage(clientId, 'https://desk.example/cb');
    expect(onTheWeb.consent.text).toContain('desk.example');
    expect(onTheWeb.consent.text).not.toMatch(/class="warning"/);
  });
});

describe('RFC 9700 §2.2.2 and §4.14: a public client’s refresh token rotates and its reuse ends the grant', () => {
  it('refuses a used refresh token, and the one it was exchanged for dies with it', async () => {
    const clientId = await agentClient(['http://127.0.0.1/callback']);
    const { browser, consent, verifier } = await agentConsentPage(clientId, scene.callback.redirectUri);
    const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
    const back = new URL(
      (await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), scene.callback.redirectUri)).url,
    );
    const token = async (fields: Record<string, string>) => {
      const response = await fetch(`${scene.identity.issuer}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, ...fields }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    };
    const first = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: scene.callback.redirectUri,
    });
    expect(first.status).toBe(200);
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.body['refresh_token']! });
    expect(second.status).toBe(200);
    expect(second.body['refresh_token']).not.toBe(first.body['refresh_token']);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: first.body['refresh_token']! });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const afterReuse = await token({ grant_type: 'refresh_token', refresh_token: second.body['refresh_token']! });
    expect(afterReuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
