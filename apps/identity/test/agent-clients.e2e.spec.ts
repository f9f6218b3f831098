import { createServer, type AddressInfo, type Server } from 'node:net';
import fc from 'fast-check';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { AccessTokenSigner } from '../src/sign-in/oidc/access-token-signer';
import { OidcStoreRepository } from '../src/sign-in/oidc/oidc-store.repository';
import { SERVICE_TOKEN } from './support/identity-app';
import { API_AUDIENCE, FormBrowser, createUserWithPassword, getJson, type SignedUpUser } from './support/signin-fixture';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// Agent clients register themselves (RFC 7591 here; metadata documents in the gateway's OAuth e2e),
// are public clients that get tokens for the tool gateway only, and act for the person who consented:
// never a formal write, whatever the person's roles.
const MCP_RESOURCE = 'http://127.0.0.1:3902/mcp';
const AGENT_SCOPES = 'registry:read projects:read projects:draft';

let scene: SigninScene;
let person: SignedUpUser;
beforeAll(async () => {
  scene = await startSigninScene({ OIDC_MCP_RESOURCE: `${MCP_RESOURCE}/`, OIDC_REGISTRATION: 'open' });
  person = await createUserWithPassword(scene.identity, scene.app);
  await request(scene.identity.server)
    .post('/v1/role-bindings')
    .set('Authorization', `Bearer ${scene.identity.platformKey}`)
    .send({ uid: person.uid, role: 'project-owner', organizationId: scene.app.organizationId })
    .expect(201);
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

async function registeredAgent(): Promise<string> {
  const registered = await register({ client_name: 'Desk Agent', redirect_uris: ['http://127.0.0.1/callback'] });
  expect(registered.status).toBe(201);
  return registered.body['client_id'] as string;
}

/** An agent's sign-in through the pages, as an agent host does it: public client, PKCE, the gateway as resource. */
async function agentTokens(
  clientId: string,
  extra: Record<string, string> = {},
  resource: string | null = MCP_RESOURCE,
): Promise<oidc.TokenEndpointResponse> {
  const config = await oidc.discovery(new URL(scene.identity.issuer), clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  // Any loopback port: the agent registered http://127.0.0.1/callback (RFC 8252 §7.3).
  const redirectUri = scene.callback.redirectUri;
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: `${AGENT_SCOPES} offline_access`,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(resource ? { resource } : {}),
    prompt: 'consent',
    ...extra,
  });
  const browser = new FormBrowser();
  const login = await browser.follow(url.toString(), redirectUri);
  expect(login.status).toBe(200);
  const afterLogin = await browser.submit(login, { email: person.email, password: 'a long and unusual passphrase' }, '/login');
  expect(afterLogin.status).toBe(303);
  const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
  expect(consent.text).toContain('name="decision" value="allow"');
  const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
  const back = await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), redirectUri);
  return oidc.authorizationCodeGrant(
    config,
    new URL(back.url),
    { pkceCodeVerifier: verifier, expectedState: state },
    resource ? { resource } : undefined,
  );
}

/** The first request of an agent's sign-in, to send without following its redirect. */
function agentAuthorizationRequest(clientId: string, extra: Record<string, string>): URL {
  const authorize = new URL(`${scene.identity.issuer}/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: scene.callback.redirectUri,
    scope: AGENT_SCOPES,
    resource: MCP_RESOURCE,
    ...extra,
  }).toString();
  return authorize;
}

function decide(token: string, action: string, extra: Record<string, unknown> = {}) {
  return request(scene.identity.server)
    .post('/v1/decisions')
    .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
    .send({ credential: { kind: 'access_token', value: token }, action, resource: { organizationId: scene.app.organizationId }, ...extra })
    .expect(200);
}

describe('the authorization server tells agents how to register', () => {
  it('advertises registration, metadata documents, S256 and the agent scopes', async () => {
    const metadata = await getJson<Record<string, unknown>>(`${scene.identity.origin}/.well-known/oauth-authorization-server/oidc`);
    expect(metadata['registration_endpoint']).toBe(`${scene.identity.issuer}/reg`);
    expect(metadata['client_id_metadata_document_supported']).toBe(true);
    expect(metadata['code_challenge_methods_supported']).toEqual(['S256']);
    expect(metadata['scopes_supported']).toEqual(expect.arrayContaining(AGENT_SCOPES.split(' ')));
  });
});

describe('Client ID Metadata Documents are fetched only from public https addresses', () => {
  // Without OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES (this scene), a client id naming a loopback address or
  // plain http is refused before any connection: the listener below would count one.
  let connections = 0;
  let listener: Server;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  beforeEach(() => {
    connections = 0;
  });

  it.each([
    ['https on a loopback address', 'https://127.0.0.1'],
    ['https on a name that resolves to a loopback address', 'https://localhost'],
    ['plain http', 'http://127.0.0.1'],
  ])('refuses a client id over %s without connecting to it', async (_case, origin) => {
    const clientId = `${origin}:${(listener.address() as AddressInfo).port}/agents/desk-agent.json`;
    const authorize = agentAuthorizationRequest(clientId, {
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const response = await fetch(authorize, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_client');
    expect(connections).toBe(0);
  });
});

describe('Dynamic Client Registration makes public agent clients', () => {
  it('registers a public native client with loopback redirects, whatever authentication it asked for', async () => {
    const { status, body } = await register({
      client_name: 'Desk Agent',
      redirect_uris: ['http://127.0.0.1/callback', 'https://agent.example/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_kind: 'agent',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect(body).not.toHaveProperty('client_secret');
    // Nor is one kept: the provider made one before the agent rules made the client public.
    const [stored] = await scene.identity.dataSource.query(`SELECT payload FROM oidc_model WHERE model = 'Client' AND id = $1`, [
      body['client_id'],
    ]);
    expect(stored.payload).toMatchObject({ token_endpoint_auth_method: 'none' });
    expect(stored.payload).not.toHaveProperty('client_secret');
  });

  // RFC 7591 §3.2.2: a redirect URI refused is invalid_redirect_uri, any other value invalid_client_metadata.
  it.each([
    ['an http redirect off the loopback', { redirect_uris: ['http://agent.example/callback'] }, 'invalid_redirect_uri'],
    ['a custom scheme', { redirect_uris: ['agent://callback'] }, 'invalid_redirect_uri'],
    [
      'a private-use scheme, reverse domain name too (RFC 8252 §7.1)',
      { redirect_uris: ['com.example.agent:/callback'] },
      'invalid_redirect_uri',
    ],
    ['an https loopback redirect', { redirect_uris: ['https://127.0.0.1/callback'] }, 'invalid_redirect_uri'],
    ['a loopback redirect with user info', { redirect_uris: ['http://desk:agent@127.0.0.1/callback'] }, 'invalid_redirect_uri'],
    ['an https redirect with user info', { redirect_uris: ['https://desk-agent.example@other.example/callback'] }, 'invalid_redirect_uri'],
    ['a redirect that is no text', { redirect_uris: ['http://127.0.0.1/cb', 7] }, 'invalid_redirect_uri'],
    ['no redirect URI at all', { redirect_uris: [] }, 'invalid_redirect_uri'],
    [
      'client credentials',
      { redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code', 'client_credentials'] },
      'invalid_client_metadata',
    ],
    [
      'the implicit flow',
      { redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['implicit'], response_types: ['token'] },
      'invalid_client_metadata',
    ],
  ])('refuses %s, and stores nothing', async (_, metadata, error) => {
    const before = await scene.identity.dataSource.query(`SELECT count(*)::int AS n FROM oidc_model WHERE model = 'Client'`);
    const { status, body } = await register({ client_name: 'Odd Agent', ...metadata });
    expect([status, body['error']]).toEqual([400, error]);
    const after = await scene.identity.dataSource.query(`SELECT count(*)::int AS n FROM oidc_model WHERE model = 'Client'`);
    expect(after).toEqual(before);
  });

  it('quotes a long refused grant type shortened at a whole character, never half of one written as two UTF-16 units', async () => {
    const grant = `${'g'.repeat(59)}\u{1f600}${'g'.repeat(10)}`;
    const { status, body } = await register({ redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code', grant] });
    expect(status).toBe(400);
    expect(body['error_description']).toContain(`not ${'g'.repeat(59)}\u{1f600}…`);
  });

  it('keeps no registered scope, so a later sign-in may ask for other scopes', async () => {
    const { body } = await register({ client_name: 'Scoped', redirect_uris: ['http://127.0.0.1/cb'], scope: 'projects:draft' });
    expect(body).not.toHaveProperty('scope');
  });

  it('never lets a client mark itself', async () => {
    const { body } = await register({ client_name: 'Sneaky', redirect_uris: ['http://127.0.0.1/cb'], client_kind: 'partner' });
    expect(body['client_kind']).toBe('agent');
  });

  it('refuses metadata holding text PostgreSQL cannot store (a NUL, an unpaired surrogate), naming the field, and stores nothing', async () => {
    const storedClients = async () =>
      Number((await scene.identity.dataSource.query(`SELECT count(*) AS n FROM oidc_model WHERE model = 'Client'`))[0].n);
    const before = await storedClients();
    for (const metadata of [
      { client_name: 'Desk\u0000Agent', redirect_uris: ['http://127.0.0.1/callback'] },
      { client_name: 'Desk Agent', redirect_uris: ['http://127.0.0.1/callback'], contacts: ['\ud800@example.com'] },
    ]) {
      const { status, body } = await register(metadata);
      expect(status).toBe(400);
      expect(body['error']).toBe('invalid_client_metadata');
      expect(body['error_description']).toMatch(/^(client_name|contacts\[0\]) contains/);
    }
    expect(await storedClients()).toBe(before);
  });

  it('refuses a client name that would show a person something else on the consent page, and stores nothing', async () => {
    const storedClients = async () =>
      Number((await scene.identity.dataSource.query(`SELECT count(*) AS n FROM oidc_model WHERE model = 'Client'`))[0].n);
    const before = await storedClients();
    for (const name of [
      'Desk Agent \u202Etnega elbatsurt',
      '\u2066Desk\u2069 Agent',
      'Desk Agent\nApproved by your administrator',
      '\u200B\u3164',
    ]) {
      const { status, body } = await register({ client_name: name, redirect_uris: ['http://127.0.0.1/callback'] });
      expect([name, status, body['error']]).toEqual([name, 400, 'invalid_client_metadata']);
      expect(body['error_description']).toMatch(/^client_name must/);
    }
    expect(await storedClients()).toBe(before);
    const tagged = await register({ client_name: 'Desk Agent', 'client_name#fr': 'Agent \u202E', redirect_uris: ['http://127.0.0.1/cb'] });
    expect([tagged.status, tagged.body['client_name#fr']]).toEqual([201, undefined]);
    const mixed = await register({
      client_name: '\u0645\u0633\u0627\u0639\u062F Desk \u{1F9D1}\u200D\u{1F4BB}',
      redirect_uris: ['http://127.0.0.1/cb'],
    });
    expect(mixed.status).toBe(201);
  });

  it('answers hostile metadata with a 201 or an OAuth error, never a 5xx, and stores a client only when it answers 201', async () => {
    // JSON the body parser can give: objects whose own toString, valueOf or __proto__ is data, arrays of them, any value.
    const prototypeKeyed = fc
      .tuple(fc.constantFrom('toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProperty', 'toJSON'), fc.jsonValue({ maxDepth: 1 }))
      .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown);
    const hostile = fc.oneof(
      prototypeKeyed,
      fc.array(fc.oneof(prototypeKeyed, fc.jsonValue({ maxDepth: 1 })), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const fields = [
      'redirect_uris',
      'grant_types',
      'response_types',
      'client_name',
      'token_endpoint_auth_method',
      'scope',
      'contacts',
      'client_uri',
      'logo_uri',
      'jwks',
      'default_max_age',
      'require_auth_time',
      'post_logout_redirect_uris',
      'application_type',
      'id_token_signed_response_alg',
      'software_id',
      'client_kind',
      'client_id',
    ];
    const storedClients = async () =>
      Number((await scene.identity.dataSource.query(`SELECT count(*) AS n FROM oidc_model WHERE model = 'Client'`))[0].n);
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...fields), hostile, { minKeys: 1, maxKeys: 3 }), async (replaced) => {
        const before = await storedClients();
        const metadata = JSON.parse(`{"client_name":"Fuzzed","redirect_uris":["http://127.0.0.1/cb"],${JSON.stringify(replaced).slice(1)}`);
        const { status, body } = await register(metadata as Record<string, unknown>);
        expect([201, 400]).toContain(status);
        if (status === 400) expect(body['error']).toMatch(/^invalid_(client_metadata|redirect_uri|request)$/);
        expect(await storedClients()).toBe(before + (status === 201 ? 1 : 0));
      }),
      { numRuns: 300 },
    );
  });
});

describe('an agent client nobody signs in with', () => {
  /** The client's row and its registration access token's: how long each is kept. */
  const storedRows = (clientId: string): Promise<{ model: string; kept: 'for good' | 'thirty days' | 'otherwise' }[]> =>
    scene.identity.dataSource.query(
      `SELECT model, CASE WHEN expires_at IS NULL THEN 'for good'
                          WHEN expires_at BETWEEN now() + interval '29 days 23 hours' AND now() + interval '30 days' THEN 'thirty days'
                          ELSE 'otherwise' END AS kept
         FROM oidc_model WHERE (model = 'Client' AND id = $1) OR (model = 'RegistrationAccessToken' AND payload->>'clientId' = $1)
        ORDER BY model`,
      [clientId],
    );
  /** As if `days` had passed: every expiry the client's rows have moves back that far. */
  const daysPass = (clientId: string, days: number) =>
    scene.identity.dataSource.query(
      `UPDATE oidc_model SET expires_at = expires_at - make_interval(days => $2)
        WHERE (model = 'Client' AND id = $1) OR (model = 'RegistrationAccessToken' AND payload->>'clientId' = $1)`,
      [clientId, days],
    );
  const signInStarts = async (clientId: string) =>
    (
      await fetch(agentAuthorizationRequest(clientId, { code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }), {
        redirect: 'manual',
      })
    ).status;

  it('expires with its registration access token 30 days after registering and is purged; one a person granted something is kept', async () => {
    const unused = await registeredAgent();
    const young = await registeredAgent();
    const used = await registeredAgent();
    const thirtyDays = [
      { model: 'Client', kept: 'thirty days' },
      { model: 'RegistrationAccessToken', kept: 'thirty days' },
    ];
    expect(await storedRows(unused)).toEqual(thirtyDays);
    await agentTokens(used);
    expect(await storedRows(used)).toEqual([
      { model: 'Client', kept: 'for good' },
      { model: 'RegistrationAccessToken', kept: 'for good' },
    ]);

    await daysPass(unused, 31);
    await daysPass(young, 29);
    await daysPass(used, 31);
    expect(await signInStarts(unused)).toBe(400);
    expect(await signInStarts(young)).toBe(303);
    await scene.identity.app.get(OidcStoreRepository).purgeExpired();

    expect(await storedRows(unused)).toEqual([]);
    expect(await storedRows(young)).toHaveLength(2);
    expect(await storedRows(used)).toHaveLength(2);
    expect(decodeJwt((await agentTokens(used)).access_token)['client_id']).toBe(used);
  });
});

describe('an agent signs a person in and gets a token for the gateway', () => {
  it('issues a token whose audience is the gateway (canonical), with its scopes, marked as an agent’s, and a refresh token', async () => {
    const clientId = await registeredAgent();
    const tokens = await agentTokens(clientId);
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe(MCP_RESOURCE);
    expect(claims['client_id']).toBe(clientId);
    expect(claims['client_kind']).toBe('agent');
    expect((claims['scope'] as string).split(' ').sort()).toEqual(AGENT_SCOPES.split(' ').sort());
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it('gives an agent a refresh token without offline_access (MCP clients do not ask for it), which rotates', async () => {
    const clientId = await registeredAgent();
    const tokens = await agentTokens(clientId, { scope: 'registry:read projects:read' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const config = await oidc.discovery(new URL(scene.identity.issuer), clientId, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: MCP_RESOURCE });
    expect(decodeJwt(refreshed.access_token).aud).toBe(MCP_RESOURCE);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it('lets the agent ask without openid or a resource: the gateway is its only resource', async () => {
    const clientId = await registeredAgent();
    const config = await oidc.discovery(new URL(scene.identity.issuer), clientId, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: scene.callback.redirectUri,
      scope: 'projects:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    const login = await new FormBrowser().follow(url.toString(), scene.callback.redirectUri);
    expect(login.status).toBe(200);
    expect(login.text).toContain('name="password"');
  });

  it('gives an agent that names no resource, at the authorization or the token endpoint, a token for the gateway', async () => {
    const tokens = await agentTokens(await registeredAgent(), { scope: 'projects:read' }, null);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: MCP_RESOURCE, scope: 'projects:read' });
  });

  it('reads the gateway as the resource however an agent spells it (scheme and host case, a trailing slash)', async () => {
    const tokens = await agentTokens(await registeredAgent(), { scope: 'projects:read' }, 'HTTP://127.0.0.1:3902/mcp/');
    expect(decodeJwt(tokens.access_token).aud).toBe(MCP_RESOURCE);
  });

  it('reads no resource indicator over 2 048 characters, even the gateway followed by slashes (its read was quadratic in them)', async () => {
    const clientId = await registeredAgent();
    const pushed = (resource: string) =>
      fetch(`${scene.identity.issuer}/request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          redirect_uri: scene.callback.redirectUri,
          scope: AGENT_SCOPES,
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          resource,
        }).toString(),
      });
    const atTheBound = `${MCP_RESOURCE}${'/'.repeat(2048 - MCP_RESOURCE.length)}`;
    expect((await pushed(atTheBound)).status).toBe(201);
    const over = await pushed(`${atTheBound}/`);
    expect({ status: over.status, body: await over.json() }).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('grants an agent agent scopes only: the standards API scope asked beside them is not in its token', async () => {
    const tokens = await agentTokens(await registeredAgent(), { scope: 'projects:read api' });
    expect(decodeJwt(tokens.access_token)['scope']).toBe('projects:read');
  });

  it('holds an agent client to PKCE with S256: a request without a challenge, or with a plain one, goes back refused', async () => {
    const clientId = await registeredAgent();
    const pkceAsked: Record<string, string>[] = [
      {},
      { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'plain' },
    ];
    for (const pkce of pkceAsked) {
      const response = await fetch(agentAuthorizationRequest(clientId, { state: oidc.randomState(), ...pkce }), { redirect: 'manual' });
      expect(response.status).toBe(303);
      const back = new URL(response.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(scene.callback.redirectUri);
      expect(back.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('refuses an agent a token for the standards API, and a partner app one for the gateway', async () => {
    const clientId = await registeredAgent();
    const agent = await oidc.discovery(new URL(scene.identity.issuer), clientId, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const asAgent = oidc.buildAuthorizationUrl(agent, {
      redirect_uri: scene.callback.redirectUri,
      scope: 'openid api',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      resource: API_AUDIENCE,
    });
    const refusedAgent = await new FormBrowser().follow(asAgent.toString(), scene.callback.redirectUri);
    expect(refusedAgent.url).toContain('error=invalid_target');

    const partner = await scene.flow.relyingParty(scene.app);
    const asPartner = oidc.buildAuthorizationUrl(partner, {
      redirect_uri: scene.callback.redirectUri,
      scope: 'openid projects:draft',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      resource: MCP_RESOURCE,
    });
    const refusedPartner = await new FormBrowser().follow(asPartner.toString(), scene.callback.redirectUri);
    expect(refusedPartner.url).toContain('error=invalid_target');
  });
});

describe('decisions on an agent’s token', () => {
  let token: string;
  let clientId: string;
  beforeAll(async () => {
    clientId = await registeredAgent();
    token = (await agentTokens(clientId)).access_token;
  });

  it('holds only for the gateway: asked as the standards API (no audience) or another audience, it is no credential', async () => {
    expect((await decide(token, 'split-project:read')).body).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
    expect((await decide(token, 'split-project:read', { audience: 'https://elsewhere.example/mcp' })).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('lets the agent read and draft as its person, named as an agent with its supervisor and scopes', async () => {
    // The audience as the gateway might spell it: scheme case and a trailing slash do not matter.
    const { body } = await decide(token, 'split-project:draft', { audience: 'HTTP://127.0.0.1:3902/mcp/' });
    expect(body).toMatchObject({
      decision: 'allow',
      reason: 'agent_for_role:project-owner',
      subject: { kind: 'agent', id: clientId, supervisorId: person.uid, scopes: expect.arrayContaining(['projects:draft']) },
    });
  });

  it('denies every formal action as agent_delegated, though the person’s roles would allow it, and audits it with the supervisor', async () => {
    for (const action of ['split-project:activate', 'rule-version:create', 'settlement-run:post']) {
      expect((await decide(token, action, { audience: MCP_RESOURCE })).body).toMatchObject({ decision: 'deny', reason: 'agent_delegated' });
    }
    const audit = await request(scene.identity.server)
      .get('/v1/audit')
      .query({ action: 'decision:settlement-run:post', actor: clientId })
      .set('Authorization', `Bearer ${scene.identity.platformKey}`)
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      actorKind: 'agent',
      actorId: clientId,
      outcome: 'denied',
      detail: { reason: 'agent_delegated', supervisor: person.uid },
    });
  });

  it('needs every scope an operation names: a tool’s scope, and projects:read for organization reads', async () => {
    const narrow = (await agentTokens(await registeredAgent(), { scope: 'registry:read' })).access_token;
    const ask = (action: string, extra: Record<string, unknown> = {}) => decide(narrow, action, { audience: MCP_RESOURCE, ...extra });
    expect((await ask('tool:call', { scope: 'registry:read' })).body).toMatchObject({ decision: 'allow' });
    expect((await ask('tool:call', { scope: 'projects:draft' })).body).toMatchObject({ decision: 'deny', reason: 'insufficient_scope' });
    expect((await ask('split-project:read')).body).toMatchObject({ decision: 'deny', reason: 'insufficient_scope' });
    expect((await ask('split-project:draft')).body).toMatchObject({ decision: 'deny', reason: 'insufficient_scope' });
    expect((await ask('split-project:read', { scope: 'registry:read' })).body).toMatchObject({
      decision: 'deny',
      reason: 'insufficient_scope',
    });
  });
});

describe('the registration policy', () => {
  it('is off: there is no registration endpoint', async () => {
    const off = await startSigninScene({ OIDC_REGISTRATION: 'off' });
    try {
      const metadata = await getJson<Record<string, unknown>>(`${off.identity.issuer}/.well-known/openid-configuration`);
      expect(metadata).not.toHaveProperty('registration_endpoint');
      const response = await fetch(`${off.identity.issuer}/reg`, {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('asks for the initial access token, and registers with it', async () => {
    const initialAccessToken = 'initial-access-token-for-agents-0123456789';
    const guarded = await startSigninScene({ OIDC_REGISTRATION: 'token', OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN: initialAccessToken });
    try {
      const attempt = (bearer?: string) =>
        fetch(`${guarded.identity.issuer}/reg`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
          body: JSON.stringify({ client_name: 'Agent', redirect_uris: ['http://127.0.0.1/cb'] }),
        });
      expect((await attempt()).status).toBe(401);
      expect((await attempt('not-the-token-at-all-0123456789abcdef')).status).toBe(401);
      expect((await attempt(initialAccessToken)).status).toBe(201);
    } finally {
      await guarded.close();
    }
  });
});

describe('the token exchange (RFC 8693) between the gateway and the standards API', () => {
  const exchange = (body: Record<string, unknown>, serviceToken: string | null = SERVICE_TOKEN) => {
    const call = request(scene.identity.server).post('/v1/token-exchange');
    if (serviceToken) call.set('Authorization', `Bearer ${serviceToken}`);
    return call.send({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      ...body,
    });
  };
  let agentToken: string;
  let clientId: string;
  beforeAll(async () => {
    clientId = await registeredAgent();
    agentToken = (await agentTokens(clientId, { scope: 'registry:read projects:read' })).access_token;
  });

  it('yields a short standards-API token naming the agent as actor, with no wider scope, on which no formal action is allowed', async () => {
    const { body } = await exchange({ subject_token: agentToken, resource: API_AUDIENCE }).expect(200);
    expect(body).toMatchObject({
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      scope: 'registry:read projects:read',
    });
    expect(body.expires_in).toBeLessThanOrEqual(300);
    const claims = decodeJwt(body.access_token);
    const agentClaims = decodeJwt(agentToken);
    expect(claims).toMatchObject({
      aud: API_AUDIENCE,
      sub: agentClaims.sub,
      client_id: clientId,
      act: { sub: clientId },
      gid: agentClaims['gid'],
      auth_time: agentClaims['auth_time'],
    });
    expect(claims['auth_time']).toEqual(expect.any(Number));
    expect(claims.jti).not.toBe(agentClaims.jti);

    const asStandardsApi = (action: string) => decide(body.access_token, action);
    expect((await asStandardsApi('split-project:read')).body).toMatchObject({
      decision: 'allow',
      subject: { kind: 'agent', id: clientId, supervisorId: person.uid },
    });
    expect((await asStandardsApi('split-project:draft')).body).toMatchObject({ decision: 'deny', reason: 'insufficient_scope' });
    expect((await asStandardsApi('settlement-run:post')).body).toMatchObject({ decision: 'deny', reason: 'agent_delegated' });
    // Exchanged for the standards API, it is no token for the gateway.
    expect((await decide(body.access_token, 'tool:call', { audience: MCP_RESOURCE })).body).toMatchObject({ reason: 'invalid_credential' });
    // Nor for an audience identity does not serve.
    expect((await decide(body.access_token, 'split-project:read', { audience: 'https://elsewhere.example/mcp' })).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('narrows to the scopes asked for, and refuses wider ones', async () => {
    expect((await exchange({ subject_token: agentToken, scope: 'projects:read' }).expect(200)).body.scope).toBe('projects:read');
    const repeated = await exchange({ subject_token: agentToken, scope: 'projects:read projects:read' }).expect(200);
    expect(repeated.body.scope).toBe('projects:read');
    expect(decodeJwt(repeated.body.access_token)['scope']).toBe('projects:read');
    const wider = await exchange({ subject_token: agentToken, scope: 'projects:read projects:draft' }).expect(422);
    expect(wider.body.domainCode).toBe('token_exchange.scope_wider');
  });

  it('never outlives the agent’s own token', async () => {
    const { jti: _jti, exp: _exp, iat: _iat, aud, iss: _iss, ...claims } = decodeJwt(agentToken);
    const endsSoon = Math.floor(Date.now() / 1000) + 30;
    const shortAgentToken = await scene.identity.app.get(AccessTokenSigner).sign(claims, aud as string, endsSoon);
    const { body } = await exchange({ subject_token: shortAgentToken }).expect(200);
    expect(decodeJwt(body.access_token).exp).toBe(endsSoon);
    expect(body.expires_in).toBeLessThanOrEqual(30);
  });

  it('refuses an agent token revoked since it was issued, and one that has expired', async () => {
    const revoked = (await agentTokens(clientId, { scope: 'registry:read' })).access_token;
    await exchange({ subject_token: revoked }).expect(200);
    await request(scene.identity.server)
      .post('/oidc/token/revocation')
      .type('form')
      .send({ client_id: clientId, token: revoked, token_type_hint: 'access_token' })
      .expect(200);
    expect((await exchange({ subject_token: revoked }).expect(422)).body.domainCode).toBe('token_exchange.subject_token_invalid');

    const { jti: _jti, exp: _exp, iat: _iat, aud, iss: _iss, ...claims } = decodeJwt(agentToken);
    const expired = await scene.identity.app.get(AccessTokenSigner).sign(claims, aud as string, Math.floor(Date.now() / 1000) - 60);
    expect((await exchange({ subject_token: expired }).expect(422)).body.domainCode).toBe('token_exchange.subject_token_invalid');
  });

  it('ends a token exchanged before the agent token it came from was revoked, at once', async () => {
    const subject = (await agentTokens(clientId, { scope: 'registry:read projects:read' })).access_token;
    const exchanged = (await exchange({ subject_token: subject }).expect(200)).body.access_token as string;
    expect((await decide(exchanged, 'split-project:read')).body).toMatchObject({ decision: 'allow' });
    await request(scene.identity.server)
      .post('/oidc/token/revocation')
      .type('form')
      .send({ client_id: clientId, token: subject, token_type_hint: 'access_token' })
      .expect(200);
    expect((await decide(exchanged, 'split-project:read')).body).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
  });

  it('refuses what is no live agent token for the gateway, another target, and callers without a service credential', async () => {
    const partner = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(partner);
    const partnerToken = (await scene.flow.tokens(partner, authorization, await scene.flow.signIn(authorization, person.email)))
      .access_token;
    for (const subject of [partnerToken, 'garbage', `${agentToken}x`]) {
      expect((await exchange({ subject_token: subject }).expect(422)).body.domainCode).toBe('token_exchange.subject_token_invalid');
    }
    expect((await exchange({ subject_token: agentToken, resource: 'https://elsewhere.example' }).expect(422)).body.domainCode).toBe(
      'token_exchange.target_invalid',
    );
    await exchange({ subject_token: agentToken }, null).expect(401);
    await exchange({ subject_token: agentToken, grant_type: 'client_credentials' }).expect(400);
    for (const [change, field] of [
      [{ subject_token_type: 'urn:ietf:params:oauth:token-type:id_token' }, 'subject_token_type'],
      [{ scope: 'projects:draft admin' }, 'scope'],
      [{ resource: `https://${'r'.repeat(1993)}` }, 'resource'],
      [{ subject_token: 'x'.repeat(8193) }, 'subject_token'],
    ] as const) {
      const refused = await exchange({ subject_token: agentToken, ...change }).expect(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });
});

describe('a person’s answer on the consent page', () => {
  const consentEntries = async (clientId: string) =>
    (
      await request(scene.identity.server)
        .get('/v1/audit')
        .query({ action: 'signin.consent' })
        .set('Authorization', `Bearer ${scene.identity.platformKey}`)
        .expect(200)
    ).body.items.filter((entry: { detail: { clientId?: string } }) => entry.detail.clientId === clientId);

  it('is in the audit log: the person, the agent client and what it may do, or the refusal', async () => {
    const allowed = await registeredAgent();
    const tokens = await agentTokens(allowed);
    const grantId = (JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as { gid: string }).gid;
    expect(await consentEntries(allowed)).toEqual([
      expect.objectContaining({
        actorKind: 'human',
        actorId: person.uid,
        target: grantId,
        outcome: 'success',
        detail: expect.objectContaining({
          clientId: allowed,
          grantId,
          agentClient: true,
          resourceScopes: { [MCP_RESOURCE]: expect.arrayContaining(['registry:read', 'projects:draft']) },
        }),
      }),
    ]);
    // One grant's story by its id: the consent that created it, then the tokens issued under it.
    const story = await request(scene.identity.server)
      .get('/v1/audit')
      .query({ target: grantId })
      .set('Authorization', `Bearer ${scene.identity.platformKey}`)
      .expect(200);
    expect(story.body.items.map((entry: { action: string }) => entry.action)).toEqual(['signin.consent', 'tokens.issue']);

    const refused = await registeredAgent();
    const browser = new FormBrowser();
    const redirectUri = scene.callback.redirectUri;
    const login = await browser.follow(
      agentAuthorizationRequest(refused, {
        prompt: 'consent',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString(),
      redirectUri,
    );
    const afterLogin = await browser.submit(login, { email: person.email, password: 'a long and unusual passphrase' }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
    await browser.submit(consent, { decision: 'deny' }, '/consent');
    expect(await consentEntries(refused)).toEqual([
      expect.objectContaining({
        actorKind: 'human',
        actorId: person.uid,
        target: refused,
        outcome: 'denied',
        detail: expect.objectContaining({ clientId: refused, agentClient: true }),
      }),
    ]);
  });
});
