import { randomUUID } from 'node:crypto';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { AGENT_SCOPES } from '@stdreg/contracts';
import { freePort, postMcp } from '@stdreg/server-kit/testing';
import { sampleScenario, validToolCalls } from './support/examples';
import { startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';
import { startPartner, type Partner } from './support/signed-in-user';

// Agents' tokens at the gateway, from a real identity: the gateway accepts only tokens issued for its own
// (canonical) URL, shows and runs only what their scopes allow, and never hands an agent's token on: what
// reaches standards-api is a token identity exchanged for that hop, naming the agent as actor.

/** Every request the gateway makes to standards-api, with the credential it carried, passed on unchanged. */
interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
}

async function startRecordingProxy(target: string): Promise<{ url: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    seen.push({ method: incoming.method ?? '', path: incoming.url ?? '', authorization: incoming.headers.authorization });
    const relay = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    relay.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(relay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let platform: Platform;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let gateway: RunningGateway;
let partner: Partner;
let mcpResource: string;
/** One person, signed in by an agent host once for every subset of the agent scopes. */
const tokenFor = new Map<string, { clientId: string; accessToken: string; refreshToken: string | undefined }>();
let personUid: string;

const SUBSETS = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => AGENT_SCOPES.filter((_, index) => bits & (1 << index)));
const key = (scopes: readonly string[]) => scopes.join(' ');

beforeAll(async () => {
  const port = await freePort();
  mcpResource = `http://127.0.0.1:${port}/mcp`;
  platform = await startPlatform({ OIDC_MCP_RESOURCE: mcpResource });
  proxy = await startRecordingProxy(platform.standardsApiUrl);
  gateway = await startGateway(
    {
      ...gatewayEnvironment(),
      // Spelled differently from identity's: scheme case and a trailing slash must not make them mismatch.
      MCP_RESOURCE_URL: `HTTP://127.0.0.1:${port}/mcp/`,
    },
    port,
  );
  partner = await startPartner(platform);
  // An empty scope list is no sign-in an agent host makes: the agent asks for what the challenge names.
  const withScopes = SUBSETS.filter((scopes) => scopes.length > 0);
  const person = await partner.agentOfUser(['project-owner'], mcpResource, withScopes.map(key));
  personUid = person.uid;
  withScopes.forEach((scopes, index) => tokenFor.set(key(scopes), person.tokens[index]!));
}, PLATFORM_START_TIMEOUT_MS);
function gatewayEnvironment(): Record<string, string> {
  return {
    STANDARDS_API_URL: proxy.url,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    OIDC_ISSUER: `${platform.identityUrl}/oidc`,
    // Every request asks identity: the scope checks are what is tested, not the read cache.
    AUTHZ_READ_CACHE_MS: '0',
  };
}

afterAll(async () => {
  await partner?.close();
  await gateway?.close();
  await proxy?.close();
  await platform?.stop();
});

/** The parts of a JSON-RPC answer these tests read. */
interface RpcAnswer {
  result?: {
    isError?: boolean;
    structuredContent?: { project: { id: string; organizationId: string } };
    contents?: { text: string }[];
    tools?: { name: string }[];
  };
  error?: { code: number; message: string };
}

let rpcId = 0;
async function rpc(token: string, method: string, params: Record<string, unknown> = {}) {
  const response = await postMcp(gateway.mcpUrl, token, { id: ++rpcId, method, params });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: JSON.parse(text) as RpcAnswer };
}

const all = () => tokenFor.get(key(AGENT_SCOPES))!;
const draftArguments = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});

describe("an agent's token at the gateway", () => {
  it('drafts in the person’s organization, and standards-api sees an exchanged token naming the agent, never the agent’s own', async () => {
    const { accessToken, clientId } = all();
    proxy.seen.length = 0;
    const drafted = await rpc(accessToken, 'tools/call', { name: 'draft_split_project', arguments: draftArguments('Agent draft') });
    expect(drafted.status).toBe(200);
    expect(drafted.body.result?.isError ?? false).toBe(false);
    const project = drafted.body.result!.structuredContent!.project;
    expect(project.organizationId).toBe(partner.organizationId);
    const read = await rpc(accessToken, 'resources/read', { uri: `stdreg://split-projects/${project.id}` });
    expect(JSON.parse(read.body.result!.contents![0]!.text)).toMatchObject({ id: project.id });

    const credentialed = proxy.seen.filter((seen) => seen.authorization !== undefined);
    expect(credentialed.map((seen) => `${seen.method} ${seen.path.split('?')[0]}`)).toEqual([
      'POST /api/v2/split-projects',
      `GET /api/v2/split-projects/${project.id}`,
    ]);
    for (const seen of proxy.seen) expect(seen.authorization ?? '').not.toContain(accessToken);
    const [draftHop, readHop] = credentialed.map((seen) => decodeJwt(seen.authorization!.replace(/^Bearer /, '')));
    for (const hop of [draftHop!, readHop!]) {
      expect(hop).toMatchObject({ aud: 'urn:stdreg:standards-api', sub: personUid, act: { sub: clientId }, client_kind: 'agent' });
    }
    // Each hop carries the one scope it needs.
    expect(draftHop!['scope']).toBe('projects:draft');
    expect(readHop!['scope']).toBe('projects:read');
  });

  it('answers a token without the scope a tool needs with HTTP 403 insufficient_scope, naming what it holds and lacks, and runs nothing', async () => {
    proxy.seen.length = 0;
    const { accessToken } = tokenFor.get('registry:read')!;
    const refused = await rpc(accessToken, 'tools/call', { name: 'draft_split_project', arguments: draftArguments('Never made') });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(
      `Bearer error="insufficient_scope", scope="registry:read projects:draft", resource_metadata="http://127.0.0.1:${new URL(mcpResource).port}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(proxy.seen).toEqual([]);
  });

  it('answers a batch with HTTP 400 -32600 before its token is looked at, and runs none of it, though the token may call every part', async () => {
    proxy.seen.length = 0;
    const { accessToken } = all();
    const refused = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${accessToken}`,
      },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } },
        { jsonrpc: '2.0', id: ++rpcId, method: 'resources/read', params: { uri: `stdreg://split-projects/${randomUUID()}` } },
        {
          jsonrpc: '2.0',
          id: ++rpcId,
          method: 'tools/call',
          params: { name: 'draft_split_project', arguments: draftArguments('Never made in a batch') },
        },
      ]),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('a JSON-RPC batch is not an MCP 2025-11-25 message') },
      id: null,
    });
    expect(proxy.seen).toEqual([]);
  });

  it('answers a token without projects:read reading an organization resource with HTTP 403 insufficient_scope, and reads nothing', async () => {
    proxy.seen.length = 0;
    const { accessToken } = tokenFor.get('registry:read')!;
    const refused = await rpc(accessToken, 'resources/read', { uri: `stdreg://split-projects/${randomUUID()}` });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toMatch(/^Bearer error="insufficient_scope", scope="registry:read projects:read", resource_metadata="/);
    expect(proxy.seen).toEqual([]);
  });

  it('refuses a token whose audience is not the gateway, and a tampered one, with HTTP 401 invalid_token', async () => {
    const personToken = await partner.signedInUser(['project-owner']);
    const { accessToken } = all();
    for (const token of [personToken, `${accessToken.slice(0, -4)}AAAA`]) {
      const refused = await rpc(token, 'tools/call', { name: 'resolve_term', arguments: { text: 'cap' } });
      expect(refused.status).toBe(401);
      expect(refused.challenge).toMatch(
        /^Bearer error="invalid_token", scope="registry:read projects:read projects:draft", resource_metadata="/,
      );
    }
  });

  it('shows in tools/list exactly the tools a token may call (every subset of the agent scopes)', async () => {
    const calls = validToolCalls();
    const toolNames = Object.keys(calls);
    const withScopes = SUBSETS.filter((scopes) => scopes.length > 0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withScopes), fc.constantFrom(...toolNames), async (scopes, name) => {
        const { accessToken } = tokenFor.get(key(scopes))!;
        const listed = (await rpc(accessToken, 'tools/list')).body.result!.tools!.map((tool) => tool.name);
        const called = await rpc(accessToken, 'tools/call', {
          name,
          arguments: name === 'draft_split_project' ? draftArguments('Property draft') : calls[name],
        });
        const mayCall = called.status === 200 && called.body.result?.isError !== true;
        expect({ scopes, name, listed: listed.includes(name) }).toEqual({ scopes, name, listed: mayCall });
      }),
      { numRuns: 40, seed: 17 },
    );
  });
});

describe("an agent's tool-call limit", () => {
  /** A new access token for the agent, as its host gets one when the old one runs out. */
  async function refreshed(clientId: string, refreshToken: string): Promise<string> {
    const discovery = (await (await fetch(`${platform.identityUrl}/oidc/.well-known/openid-configuration`)).json()) as {
      token_endpoint: string;
    };
    const answer = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, resource: mcpResource }),
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  it('counts a refreshed token against the bucket of the token it replaced: a refresh does not start the limit afresh', async () => {
    const port = await freePort();
    const limited = await startGateway(
      { ...gatewayEnvironment(), MCP_RESOURCE_URL: mcpResource, MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '2' },
      port,
    );
    try {
      const call = (token: string) =>
        postMcp(limited.mcpUrl, token, { id: ++rpcId, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } });
      const { clientId, accessToken, refreshToken } = all();
      const renewed = await refreshed(clientId, refreshToken!);
      expect(renewed).not.toBe(accessToken);
      expect((await call(accessToken)).status).toBe(200);
      expect((await call(accessToken)).status).toBe(200);
      const refused = await call(renewed);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining('for this agent') } });
      // Another agent host the same person signed in has a bucket of its own.
      expect((await call(tokenFor.get('registry:read')!.accessToken)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
