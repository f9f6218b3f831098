// Issue 17, section D: an agent host with the official MCP SDK's OAuth support connects to the built
// gateway knowing only its URL. The gateway's 401 leads it to the protected-resource metadata, that to
// identity; it registers (once by a Client ID Metadata Document on a local HTTPS server of a test CA,
// once by Dynamic Client Registration), a person signs in and allows in Chromium (no script), and the
// agent drafts in the person's organization and refreshes. Its tokens never make a formal write.
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  createTestCa,
  startClientMetadataServer,
  startSignedInPartner,
  type ClientMetadataServer,
  type SignedInPartner,
  type TestCa,
} from '@stdreg/server-kit/testing';
import { authorizeAgent, type AuthorizedAgent } from '../src/agent-authorization';
import { agentClientMetadata, startLoopbackRedirect, TestOAuthClientProvider } from '../src/agent-oauth-client';
import { call } from '../src/http';
import { launchBrowser } from '../src/human-sign-in';
import { startPlatform, type Platform } from '../src/platform';
import { walkthroughScenario } from '../src/split-project-work';

const AGENT_SCOPES = ['registry:read', 'projects:read', 'projects:draft'];

let ca: TestCa;
let platform: Platform;
let cimd: ClientMetadataServer;
let redirect: Awaited<ReturnType<typeof startLoopbackRedirect>>;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let partner: SignedInPartner;
let person: { uid: string; email: string; password: string };
/** The agent of the first test, known by its metadata document; later tests use its tokens. */
let agent: AuthorizedAgent | undefined;
let agentProvider: TestOAuthClientProvider | undefined;
let draftedProject: { id: string; scenarioId: string } | undefined;

beforeAll(async () => {
  // identity trusts the test CA from its start (NODE_EXTRA_CA_CERTS is read once), so the CA comes first.
  ca = await createTestCa();
  platform = await startPlatform({
    NODE_EXTRA_CA_CERTS: ca.certificateFile,
    OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true',
    OIDC_REGISTRATION: 'open',
  });
  cimd = await startClientMetadataServer(ca);
  redirect = await startLoopbackRedirect();
  browser = await launchBrowser({ javaScriptEnabled: false });
  partner = await startSignedInPartner({ url: platform.identityUrl, platformKey: platform.platformKey });
  // A person who may approve: the agent acting for them is refused formal writes all the same.
  person = { ...(await partner.userWithRoles(['project-owner'])), password: partner.password };
}, 240_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await partner?.close();
  await redirect?.close();
  await cimd?.close();
  await platform?.stop();
  await ca?.close();
});

const gatewayOrigin = () => new URL(platform.mcpUrl).origin;
const issuer = () => `${platform.identityUrl}/oidc`;

function draftArguments(name: string): Record<string, unknown> {
  return {
    name,
    currency: 'EUR',
    templateVersion: '1.0',
    scenario: { name: 'Agent baseline', content: walkthroughScenario() },
  };
}

/** The structured result of a tool call that must succeed. */
async function callTool(client: AuthorizedAgent['client'], name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  return result.structuredContent as Record<string, unknown>;
}

describe('an agent host connects to the gateway with its URL alone (MCP authorization, issue 17)', () => {
  it('is challenged 401 on a tool call without a credential, and the challenge leads to identity as the authorization server', async () => {
    const refused = await fetch(platform.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'resolve_term', arguments: { text: 'revenue share' } },
      }),
    });
    expect(refused.status).toBe(401);
    // RFC 6750 §3.1: no error code when no credential was sent; MCP 2025-11-25: the metadata URL and the scopes to ask for.
    expect(challengeOf(refused.headers.get('www-authenticate'))).toEqual({
      scheme: 'Bearer',
      params: { resource_metadata: `${gatewayOrigin()}/.well-known/oauth-protected-resource/mcp`, scope: AGENT_SCOPES.join(' ') },
    });

    const resource = await call<Record<string, unknown>>('GET', `${gatewayOrigin()}/.well-known/oauth-protected-resource/mcp`, {
      expect: 200,
    });
    expect(resource.body).toMatchObject({ resource: platform.mcpUrl, authorization_servers: [issuer()] });
    expect(resource.body['scopes_supported']).toEqual(expect.arrayContaining(AGENT_SCOPES));

    const server = await call<Record<string, unknown>>('GET', `${platform.identityUrl}/.well-known/oauth-authorization-server/oidc`, {
      expect: 200,
    });
    expect(server.body).toMatchObject({
      issuer: issuer(),
      registration_endpoint: `${issuer()}/reg`,
      client_id_metadata_document_supported: true,
      code_challenge_methods_supported: ['S256'],
    });
    expect(server.body['token_endpoint_auth_methods_supported']).toContain('none');
    expect(server.body['scopes_supported']).toEqual(expect.arrayContaining([...AGENT_SCOPES, 'offline_access']));
  });

  it('registers by its Client ID Metadata Document, has the person sign in and allow once, drafts in their organization and refreshes', async () => {
    const clientId = cimd.url('/agents/drafting-agent.json');
    const options = { clientName: 'Drafting Agent (e2e)', redirectUri: redirect.redirectUri, clientMetadataUrl: clientId };
    agentProvider = new TestOAuthClientProvider(options);
    cimd.publish('/agents/drafting-agent.json', { client_id: clientId, ...agentProvider.clientMetadata, client_uri: cimd.url('/') });
    // What issue 17 asks that the run can go past: checked after the rest, so one run shows every departure.
    const departures: string[] = [];

    agent = await authorizeAgent(
      { mcpUrl: platform.mcpUrl, provider: agentProvider, organizationId: partner.organizationId },
      browser.context,
      person,
      (client) => callTool(client, 'resolve_term', { text: 'revenue share' }),
      'agent-consent-cimd-en',
    );

    // The SDK read the 401's challenge, then the metadata, then identity's: nothing was configured but the URL.
    const [first] = agent.exchanges.filter((exchange) => exchange.status === 401);
    expect(first).toMatchObject({ method: 'POST', url: platform.mcpUrl, rpcMethod: 'tools/call', authorized: false });
    expect(challengeOf(first!.wwwAuthenticate)?.params['resource_metadata']).toBe(
      `${gatewayOrigin()}/.well-known/oauth-protected-resource/mcp`,
    );
    const urls = agent.exchanges.map((exchange) => exchange.url);
    expect(urls).toContain(`${gatewayOrigin()}/.well-known/oauth-protected-resource/mcp`);
    expect(urls).toContain(`${platform.identityUrl}/.well-known/oauth-authorization-server/oidc`);
    expect(urls).not.toContain(`${issuer()}/reg`);
    // identity fetched the document (nothing else knows this server).
    expect(cimd.fetched).toContain('/agents/drafting-agent.json');

    const authorization = agentProvider.authorizationUrls[0]!;
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: clientId,
      resource: platform.mcpUrl,
      code_challenge_method: 'S256',
      redirect_uri: redirect.redirectUri,
    });
    expect(agent.consents[0]!.text).toContain('Drafting Agent (e2e)');
    expect(agent.consents[0]!.text).toContain(new URL(clientId).host);
    expect(agent.consents[0]!.text).toContain('It can never');
    const firstTokens = agentProvider.savedTokens[0]!;
    expect(decodeJwt(firstTokens.access_token)).toMatchObject({
      aud: platform.mcpUrl,
      client_id: clientId,
      sub: person.uid,
      iss: issuer(),
    });
    const firstScope = authorization.searchParams.get('scope') ?? '';
    if (!AGENT_SCOPES.every((scope) => firstScope.split(' ').includes(scope)))
      departures.push(
        `the first authorization asked for scope "${firstScope}", not all of ${AGENT_SCOPES.join(' ')} (the challenge's scope)`,
      );

    const draft = await agent.authorized((client) =>
      callTool(client, 'draft_split_project', draftArguments('Drafted by an agent for a person')),
    );
    const project = draft['project'] as { id: string; organizationId: string };
    const scenario = draft['scenario'] as { id: string };
    expect(project.organizationId).toBe(partner.organizationId);
    draftedProject = { id: project.id, scenarioId: scenario.id };
    const read = await agent.authorized((client) => client.readResource({ uri: `stdreg://split-projects/${project.id}` }));
    const [content] = read.contents;
    expect(content && 'text' in content ? JSON.parse(content.text) : null).toMatchObject({ id: project.id });
    // Back to a registry tool with whatever token the host holds now.
    await agent.authorized((client) => callTool(client, 'resolve_term', { text: 'settlement' }));
    const listed = (await agent.client.listTools()).tools.map((tool) => tool.name);
    const held = String(decodeJwt(agentProvider.tokens()!.access_token)['scope']);
    if (!['draft_split_project', 'resolve_term'].every((name) => listed.includes(name)))
      departures.push(
        `tools/list with the token the host holds now (scope "${held}") leaves out ${['draft_split_project', 'resolve_term'].filter((n) => !listed.includes(n)).join(', ')}`,
      );
    if (agent.consents.length !== 1)
      departures.push(
        `the person was sent to allow ${agent.consents.length} times, for scopes ${agent.consents.map((c) => `"${c.scope}"`).join(', ')}`,
      );

    // The access token runs out: the next call is refused, the SDK refreshes (the refresh token rotates) and the call goes through.
    const tokens = agentProvider.tokens()!;
    if (!tokens.refresh_token) {
      departures.push(
        `no refresh token was issued (the token response's scope: "${tokens.scope}"; the SDK asked for "${firstScope}", without offline_access)`,
      );
    } else {
      agentProvider.spoilAccessToken();
      const consentsBefore = agent.consents.length;
      await agent.authorized((client) => callTool(client, 'resolve_term', { text: 'revenue share' }));
      const refreshed = agentProvider.tokens()!;
      expect(agent.consents.length).toBe(consentsBefore);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(decodeJwt(refreshed.access_token)).toMatchObject({ aud: platform.mcpUrl, sub: person.uid });
    }
    expect(departures).toEqual([]);
  }, 180_000);

  it('registers by Dynamic Client Registration when it publishes no metadata document, and drafts the same way', async () => {
    const dcrRedirect = await startLoopbackRedirect();
    const provider = new TestOAuthClientProvider({ clientName: 'Registered Agent (e2e)', redirectUri: dcrRedirect.redirectUri });
    let registered: AuthorizedAgent | undefined;
    try {
      let draft: Record<string, unknown> | undefined;
      registered = await authorizeAgent(
        { mcpUrl: platform.mcpUrl, provider, organizationId: partner.organizationId },
        browser.context,
        person,
        async (client) => (draft = await callTool(client, 'draft_split_project', draftArguments('Drafted by a registered agent'))),
        'agent-consent-dcr-en',
      );
      const registration = registered.exchanges.find((exchange) => exchange.url === `${issuer()}/reg`);
      expect(registration).toMatchObject({ method: 'POST', status: 201 });
      const information = provider.clientInformation()!;
      expect(information.client_id).not.toMatch(/^https:/);
      expect(information).toMatchObject({ token_endpoint_auth_method: 'none' });
      expect(information).not.toHaveProperty('client_secret');
      expect(registered.consents[0]!.text).toContain('Registered Agent (e2e)');
      expect(registered.consents[0]!.text).toContain('This agent registered itself here');
      expect(decodeJwt(provider.tokens()!.access_token)).toMatchObject({ aud: platform.mcpUrl, client_id: information.client_id });
      const project = draft!['project'] as { id: string; organizationId: string };
      expect(project.organizationId).toBe(partner.organizationId);
      // Reading what it drafted needs projects:read: with the first authorization's scopes, or one more trip.
      const read = await registered.authorized((client) => client.readResource({ uri: `stdreg://split-projects/${project.id}` }));
      expect(read.contents).toHaveLength(1);
    } finally {
      await registered?.close();
      await dcrRedirect.close();
    }
  }, 180_000);

  it("makes no formal write with the agent's token: standards-api refuses it as a token for another audience, and no tool reaches one", async () => {
    if (!agentProvider || !agent || !draftedProject) throw new Error('needs the agent of the metadata-document test');
    const token = agentProvider.tokens()!.access_token;
    const api = `${platform.standardsApiUrl}/api/v2`;
    const asAgent = { token, organizationId: partner.organizationId };
    const formal: [string, unknown][] = [
      [`${api}/split-projects/${draftedProject.id}/activate`, { scenarioId: draftedProject.scenarioId }],
      [`${api}/split-projects/${draftedProject.id}/rule-versions`, { scenarioId: draftedProject.scenarioId, effectiveFrom: inDays(2) }],
      [
        `${api}/split-projects/${draftedProject.id}/settlement-runs`,
        { periodId: '2026-01', revenue: '10000.00', costs: '1200.00', periodEnd: new Date().toISOString() },
      ],
    ];
    for (const [url, body] of formal) {
      const refused = await call<{ code: string; detail: string }>('POST', url, { ...asAgent, body, expect: [401, 403] });
      expect(`${refused.body.code}: ${refused.body.detail}`).toMatch(/invalid_credential/);
    }
    // Not even a read or a draft: the token is for the gateway, never for standards-api.
    const read = await call<{ detail: string }>('GET', `${api}/split-projects/${draftedProject.id}`, { ...asAgent, expect: [401, 403] });
    expect(read.body.detail).toMatch(/invalid_credential/);
    await call('POST', `${api}/split-projects`, { ...asAgent, body: draftArguments('Straight to the API'), expect: [401, 403] });

    // Through the gateway: no tool reaches a formal write, and drafting still works.
    const tools = await agent.authorized((client) => client.listTools());
    const reachingFormal = tools.tools.filter(
      (tool) => /activat|rule_version|post_settlement|settle|equity|pay|approv/.test(tool.name) && !tool.annotations?.readOnlyHint,
    );
    expect(reachingFormal.map((tool) => tool.name)).toEqual([]);
    for (const name of ['activate_split_project', 'create_rule_version', 'post_settlement_run']) {
      await expect(agent.authorized((client) => client.callTool({ name, arguments: {} }))).rejects.toThrow(
        /-32602|not found|unknown tool/i,
      );
    }
    await agent.authorized((client) => callTool(client, 'draft_split_project', draftArguments('Drafted after the refusals')));

    // The same person, signed in through the partner's app, may activate (the first of the two steps): the refusal was the agent's.
    const humanToken = await partner.signIn(person.email);
    await call('POST', formal[0]![0], { token: humanToken, organizationId: partner.organizationId, body: formal[0]![1], expect: 428 });
    // What standards-api recorded for the agent's draft: the agent (the actor of the token the gateway exchanged) and the person it acts for.
    const recorded = await call<{ createdBy: string }>('GET', `${api}/split-projects/${draftedProject.id}`, {
      token: humanToken,
      organizationId: partner.organizationId,
      expect: 200,
    });
    expect(recorded.body.createdBy).toBe(`agent:${agentProvider.clientMetadataUrl} supervised by human:${person.uid}`);
  }, 120_000);

  it('refuses a standards-API token (from a partner app sign-in) at the gateway', async () => {
    const apiToken = await partner.signIn(person.email);
    const refused = await fetch(platform.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${apiToken}`,
        'x-organization-id': partner.organizationId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'draft_split_project', arguments: draftArguments('With a token for the API') },
      }),
    });
    const body = await refused.text();
    expect(refused.status).toBe(401);
    expect(challengeOf(refused.headers.get('www-authenticate'))).toMatchObject({
      scheme: 'Bearer',
      params: { error: 'invalid_token', resource_metadata: `${gatewayOrigin()}/.well-known/oauth-protected-resource/mcp` },
    });
    expect(body).not.toContain('"status":"draft"');
  });
});

describe("identity's bounds on Client ID Metadata Documents", () => {
  /** The first step of an agent's sign-in with `clientId`: a redirect to the sign-in pages, or identity's refusal. */
  async function authorize(clientId: string): Promise<{ status: number; body: string }> {
    const url = new URL(`${issuer()}/auth`);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirect.redirectUri,
      scope: AGENT_SCOPES.join(' '),
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: platform.mcpUrl,
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    return { status: response.status, body: await response.text() };
  }

  function publishAgent(path: string, extra: Record<string, unknown> = {}, options?: { delayMs?: number }): string {
    const clientId = cimd.url(path);
    const metadata = agentClientMetadata({ clientName: 'Bounded Agent', redirectUri: redirect.redirectUri });
    cimd.publish(path, { client_id: clientId, ...metadata, ...extra }, options);
    return clientId;
  }

  const fetchesOf = (path: string) => cimd.fetched.filter((fetched) => fetched === path).length;

  it('accepts a document within bounds, and keeps it for a while instead of fetching it on every sign-in', async () => {
    const clientId = publishAgent('/agents/bounded.json');
    expect((await authorize(clientId)).status).toBe(303);
    expect((await authorize(clientId)).status).toBe(303);
    expect(fetchesOf('/agents/bounded.json')).toBe(1);
  });

  it('refuses a document larger than 5 KiB', async () => {
    const clientId = publishAgent('/agents/oversized.json', { client_name: 'x'.repeat(6 * 1024) });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_client');
    // Refused for what it held, not before it was read.
    expect(fetchesOf('/agents/oversized.json')).toBeGreaterThan(0);
  });

  it('refuses a document whose client_id is not the URL it was fetched from', async () => {
    const clientId = publishAgent('/agents/impostor.json', { client_id: cimd.url('/agents/someone-else.json') });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_client');
  });

  it('holds a document to the rules of every agent client: one naming a plain-http redirect off the loopback is refused', async () => {
    const clientId = publishAgent('/agents/http-redirect.json', {
      redirect_uris: [redirect.redirectUri, 'http://agent.example/callback'],
    });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    // RFC 7591 §3.2.2's word for it, shown on identity's page (RFC 6749 §4.1.2.1: never sent to a redirect URI).
    expect(refused.body).toContain('invalid_redirect_uri');
  });

  // Draft §8.2: a client that declares private_key_jwt must be held to it; identity holds no agent to keys.
  it('refuses a document asking for key authentication rather than taking the agent as a public client', async () => {
    const clientId = publishAgent('/agents/keyed.json', {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: cimd.url('/agents/keyed-jwks.json'),
    });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_client_metadata');
    expect(refused.body).toContain('token_endpoint_auth_method private_key_jwt is not taken');
  });

  // Draft §4.1: no shared secret and no private key in a document (the provider's own checks, run before identity's).
  it.each([
    ['a shared-secret authentication method', { token_endpoint_auth_method: 'client_secret_post' }, 'shared-secret'],
    ['a client secret', { client_secret: 'published-for-everyone' }, 'must not contain client_secret'],
    [
      'a private key',
      { jwks: { keys: [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })] } },
      'client JSON Web Key Set is invalid',
    ],
  ])('refuses a document holding %s', async (holding, extra, said) => {
    const clientId = publishAgent(`/agents/holding-${holding.replaceAll(' ', '-')}.json`, extra);
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(said);
  });

  it('takes a document that names no authentication method as a public client (none)', async () => {
    const clientId = cimd.url('/agents/unstated.json');
    const { token_endpoint_auth_method: _stated, ...metadata } = agentClientMetadata({
      clientName: 'Unstated Agent',
      redirectUri: redirect.redirectUri,
    });
    cimd.publish('/agents/unstated.json', { client_id: clientId, ...metadata });
    expect((await authorize(clientId)).status).toBe(303);
  });

  it('refuses a document that names no client_name (MCP: required of a document, checked by the server)', async () => {
    const clientId = cimd.url('/agents/nameless.json');
    const { client_name: _name, ...metadata } = agentClientMetadata({ clientName: 'Nameless Agent', redirectUri: redirect.redirectUri });
    cimd.publish('/agents/nameless.json', { client_id: clientId, ...metadata });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('client_name is required in a metadata document');
  });

  // Draft §5: the document is answered 200 or not at all, and a redirect is not followed.
  it('refuses a client id whose URL answers with a redirect, and never fetches where it points', async () => {
    const clientId = cimd.url('/agents/moved.json');
    publishAgent('/agents/moved-to.json', { client_id: clientId });
    cimd.redirect('/agents/moved.json', cimd.url('/agents/moved-to.json'));
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_client');
    expect(fetchesOf('/agents/moved.json')).toBeGreaterThan(0);
    expect(fetchesOf('/agents/moved-to.json')).toBe(0);
  });

  // Draft §5.2: an error answer and a refused document are not cached, so the agent's fix counts at its next sign-in.
  it('keeps no error answer and no refused document: the next sign-in fetches again', async () => {
    const clientId = cimd.url('/agents/late.json');
    expect((await authorize(clientId)).status).toBe(400);
    const afterNotFound = fetchesOf('/agents/late.json');
    publishAgent('/agents/late.json', { redirect_uris: ['http://agent.example/callback'] });
    expect((await authorize(clientId)).status).toBe(400);
    const afterRefused = fetchesOf('/agents/late.json');
    publishAgent('/agents/late.json');
    expect((await authorize(clientId)).status).toBe(303);
    expect([afterNotFound > 0, afterRefused > afterNotFound, fetchesOf('/agents/late.json') > afterRefused]).toEqual([true, true, true]);
  });

  it('gives up on a document that does not arrive in time, rather than waiting for it', async () => {
    // Held back 20 s: an unbounded fetch would get it and answer 303.
    const clientId = publishAgent('/agents/slow.json', {}, { delayMs: 20_000 });
    const refused = await authorize(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('invalid_client');
    expect(fetchesOf('/agents/slow.json')).toBeGreaterThan(0);
  });
});

/** An RFC 6750 challenge as scheme and parameters (quoted or token values). */
function challengeOf(header: string | null): { scheme: string; params: Record<string, string> } | null {
  if (!header) return null;
  const [scheme = '', ...rest] = header.split(' ');
  const params = Object.fromEntries([...rest.join(' ').matchAll(/([a-z_]+)=(?:"([^"]*)"|([^\s,]+))/g)].map((m) => [m[1]!, m[2] ?? m[3]!]));
  return { scheme, params };
}

function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}
