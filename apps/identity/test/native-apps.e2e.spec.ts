import { createServer, type AddressInfo, type Server } from 'node:net';
import * as oidc from 'openid-client';
import { FormBrowser, PASSWORD, createUserWithPassword, type SignedUpUser } from './support/signin-fixture';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// Agents (MCP hosts: desktop apps, CLIs) graded against RFC 8252 (OAuth 2.0 for Native Apps), RFC 7591 and the
// Client ID Metadata Document draft, the items no other spec of identity shows; docs/decisions.md, "Agents as native
// apps", has the table. Metadata documents served over https are in the gateway's OAuth e2e (a test CA).
const MCP_RESOURCE = 'http://127.0.0.1:3904/mcp';
const AGENT_SCOPES = 'registry:read projects:read projects:draft';

let scene: SigninScene;
let person: SignedUpUser;
beforeAll(async () => {
  // Private addresses allowed, as in development: only the URL rules stand between a client id and a connection.
  scene = await startSigninScene({ OIDC_MCP_RESOURCE: MCP_RESOURCE, OIDC_REGISTRATION: 'open', OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true' });
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

async function agentClient(redirectUris: string[]): Promise<string> {
  const registered = await register({ client_name: 'Desk Agent', redirect_uris: redirectUris });
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

describe('RFC 8252 §7.3 and §8.3: loopback redirect URIs take any port, on the host they name', () => {
  it('takes any port for 127.0.0.1, [::1] and localhost, and never one loopback host for another', async () => {
    const hosts = ['127.0.0.1', '[::1]', 'localhost'];
    for (const registeredHost of hosts) {
      const clientId = await agentClient([`http://${registeredHost}/callback`]);
      for (const host of hosts) {
        const response = await fetch(await authorizeUrl(clientId, `http://${host}:49153/callback`), { redirect: 'manual' });
        expect({ registeredHost, host, status: response.status }).toEqual({
          registeredHost,
          host,
          status: host === registeredHost ? 303 : 400,
        });
      }
    }
  });
});

describe('RFC 8252 §8.6: an agent on the loopback cannot prove which program it is', () => {
  it('asks the person again at every sign-in, though the grant holds everything asked, and never answers prompt=none with a code', async () => {
    const clientId = await agentClient(['http://127.0.0.1/callback']);
    const redirectUri = scene.callback.redirectUri;
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizeUrl(clientId, redirectUri)).toString(), redirectUri);
    const afterLogin = await browser.submit(login, { email: person.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
    const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
    const back = await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), redirectUri);
    expect(new URL(back.url).searchParams.get('code')).toBeTruthy();

    // The same browser, signed in, with a grant holding every scope: another program on this computer could ask so.
    const again = await browser.follow((await authorizeUrl(clientId, redirectUri)).toString(), redirectUri);
    expect(again.status).toBe(200);
    expect(again.text).toContain('name="decision" value="allow"');
    const silent = await browser.follow((await authorizeUrl(clientId, redirectUri, { prompt: 'none' })).toString(), redirectUri);
    const answer = new URL(silent.url).searchParams;
    expect({ code: answer.get('code'), error: answer.get('error') }).toEqual({ code: null, error: 'interaction_required' });
  });
});

describe('Client ID Metadata Document draft §3: what a client id URL may be', () => {
  // A listener counts connections: identity must refuse the URL before it connects anywhere.
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
  const hostAndPort = () => `127.0.0.1:${(listener.address() as AddressInfo).port}`;

  it.each([
    ['no path', () => `https://${hostAndPort()}`, 'a client_id URL must have a path'],
    ['a query and no path', () => `https://${hostAndPort()}?agent=desk`, 'a client_id URL must have a path'],
    ['a double-dot segment', () => `https://${hostAndPort()}/agents/../desk.json`, 'invalid_client'],
    ['a single-dot segment', () => `https://${hostAndPort()}/./desk.json`, 'invalid_client'],
    ['a percent-encoded double-dot segment', () => `https://${hostAndPort()}/agents/%2E%2E/desk.json`, 'invalid_client'],
    ['user info', () => `https://desk@${hostAndPort()}/desk.json`, 'invalid_client'],
    ['a fragment', () => `https://${hostAndPort()}/desk.json#agent`, 'invalid_client'],
  ])('refuses a client id with %s without fetching it', async (_case, clientId, said) => {
    connections = 0;
    const response = await fetch(await authorizeUrl(clientId(), 'http://127.0.0.1:49153/callback'), { redirect: 'manual' });
    expect(connections).toBe(0);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(said);
  });

  it('still fetches one whose path is only a slash (NOT RECOMMENDED, allowed)', async () => {
    connections = 0;
    const response = await fetch(await authorizeUrl(`https://${hostAndPort()}/`, 'http://127.0.0.1:49153/callback'), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(connections).toBeGreaterThan(0);
  });
});
