// Every refusal of the gateway names its code from the contracts' catalogue (`stdreg.dev/refusal`): a request
// refused over HTTP before any MCP server saw it and a refused resources/read in the JSON-RPC error's `data`,
// a refused tools/call in its result's `_meta`; the same code for the same cause on every path.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MAX_CREDENTIAL_LENGTH, TOOL_REFUSAL_META, type ToolRefusalCode } from '@stdreg/contracts';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { validToolCalls } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS } from './support/platform';
import { startStandardsApiBesideFake, type StandardsApiBesideFake } from './support/standards-api-beside-fake';

const ORG = randomUUID();
const OWNER_KEY = `stdreg_app_owner_of:${ORG}`;
const identity = new FakeIdentity();
let standardsApi: StandardsApiBesideFake;
let gateway: RunningGateway;
let limited: RunningGateway;
let owner: Client;
let projectUri: string;
const clients: Client[] = [];

async function client(headers: Record<string, string>): Promise<Client> {
  const connected = await connectClient(gateway.mcpUrl, headers);
  clients.push(connected);
  return connected;
}

interface HttpAnswer {
  status: number;
  rpcCode: number | undefined;
  refusal: ToolRefusalCode | undefined;
  challenge: string | undefined;
}

/** One raw request to /mcp (node:http, since fetch cannot set Host): its status, JSON-RPC error code and refusal code. */
function raw(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const parsed = JSON.parse(text) as { error?: { code?: number; data?: Record<string, { code?: ToolRefusalCode }> } };
          resolve({
            status: response.statusCode ?? 0,
            rpcCode: parsed.error?.code,
            refusal: parsed.error?.data?.[TOOL_REFUSAL_META]?.code,
            challenge: response.headers['www-authenticate'],
          });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const toolCall = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: validToolCalls()[name] } });
const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** The JSON-RPC error of a read: its code, its words, and the refusal's code in `data`. */
async function readError(on: Client, uri: string): Promise<{ code: number; message: string; refusal: unknown }> {
  const error = (await on.readResource({ uri }).then(
    () => null,
    (e: unknown) => e,
  )) as McpError | null;
  if (!error) throw new Error(`${uri} was readable`);
  return {
    code: error.code,
    message: error.message,
    refusal: (error.data as Record<string, { code?: unknown }>)?.[TOOL_REFUSAL_META]?.code,
  };
}

async function toolRefusal(on: Client, name: string): Promise<ToolRefusalCode | undefined> {
  const result = (await on.callTool({ name, arguments: validToolCalls()[name] })) as CallToolResult;
  expect(result.isError).toBe(true);
  return (result._meta?.[TOOL_REFUSAL_META] as { code?: ToolRefusalCode } | undefined)?.code;
}

beforeAll(async () => {
  await identity.start();
  standardsApi = await startStandardsApiBesideFake(identity.url, 'refusals');
  const env = {
    STANDARDS_API_URL: standardsApi.url,
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_TIMEOUT_MS: '1000',
    AUTHZ_READ_CACHE_MS: '0',
    MCP_ALLOWED_ORIGINS: 'https://agent.example',
  };
  gateway = await startGateway({ ...env, MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '100000', MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '100000' });
  limited = await startGateway({ ...env, MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1' });
  owner = await client({ authorization: `Bearer ${OWNER_KEY}` });
  const drafted = (await owner.callTool({
    name: 'draft_split_project',
    arguments: validToolCalls()['draft_split_project'],
  })) as CallToolResult;
  if (drafted.isError) throw new Error(`draft_split_project: ${JSON.stringify(drafted.content)}`);
  projectUri = (drafted.structuredContent as { resourceUri: string }).resourceUri;
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  for (const connected of clients) await connected.close();
  await gateway?.close();
  await limited?.close();
  await standardsApi?.stop();
  await identity.stop();
});

describe('the codes of requests refused over HTTP', () => {
  it('names the request checks it failed: host, origin, protocol version, method', async () => {
    const mcp = gateway.mcpUrl;
    expect(await raw(mcp, 'POST', { host: 'evil.example.com' }, ping)).toMatchObject({
      status: 403,
      rpcCode: -32000,
      refusal: 'host_not_allowed',
    });
    expect(await raw(mcp, 'POST', { origin: 'http://evil.example.com' }, ping)).toMatchObject({
      status: 403,
      rpcCode: -32000,
      refusal: 'origin_not_allowed',
    });
    expect(await raw(mcp, 'POST', { 'mcp-protocol-version': '2025-06-18' }, ping)).toMatchObject({
      status: 400,
      rpcCode: -32000,
      refusal: 'protocol_version_unsupported',
    });
    expect(await raw(mcp, 'GET', {})).toMatchObject({ status: 405, rpcCode: -32000, refusal: 'method_not_allowed' });
  });

  it('names why the caller could not sign in, beside the challenge', async () => {
    const mcp = gateway.mcpUrl;
    const tooLong = await raw(mcp, 'POST', { authorization: `Bearer ${'a'.repeat(MAX_CREDENTIAL_LENGTH + 1)}` }, toolCall('resolve_term'));
    expect(tooLong).toMatchObject({ status: 401, rpcCode: -32000, refusal: 'credential_too_long' });
    expect(tooLong.challenge).toContain('error="invalid_token"');
    const missing = await raw(mcp, 'POST', {}, toolCall('resolve_term'));
    expect(missing).toMatchObject({ status: 401, rpcCode: -32000, refusal: 'credential_required' });
    expect(missing.challenge).toMatch(/^Bearer scope=/);
    const revoked = await raw(mcp, 'POST', { authorization: 'Bearer agent-token-revoked' }, toolCall('resolve_term'));
    expect(revoked).toMatchObject({ status: 401, rpcCode: -32000, refusal: 'credential_invalid' });
    expect(revoked.challenge).toContain('error="invalid_token"');
    const narrow = await raw(mcp, 'POST', { authorization: 'Bearer agent-token-holding:registry:read' }, toolCall('draft_split_project'));
    expect(narrow).toMatchObject({ status: 403, rpcCode: -32000, refusal: 'scope_insufficient' });
    expect(narrow.challenge).toContain('error="insufficient_scope", scope="registry:read projects:draft"');
  });

  it('names a rate limit', async () => {
    const headers = { authorization: `Bearer stdreg_app_limited_of:${ORG}` };
    expect((await raw(limited.mcpUrl, 'POST', headers, toolCall('resolve_term'))).status).toBe(200);
    expect(await raw(limited.mcpUrl, 'POST', headers, toolCall('resolve_term'))).toMatchObject({
      status: 429,
      rpcCode: -32000,
      refusal: 'rate_limited',
    });
  });
});

describe('the codes of refused resource reads', () => {
  it('names a resource that is not there, whoever says so', async () => {
    expect(await readError(owner, 'stdreg://organizations/not-a-uuid')).toMatchObject({ code: -32002, refusal: 'resource_not_found' });
    expect(await readError(owner, `stdreg://split-projects/${randomUUID()}`)).toMatchObject({
      code: -32002,
      refusal: 'split_projects.not_found',
    });
  });

  it('names a caller identity or the gateway refused', async () => {
    const other = randomUUID();
    const intruder = await client({ authorization: `Bearer stdreg_app_intruder_of:${other}`, 'x-organization-id': ORG });
    expect(await readError(intruder, projectUri)).toMatchObject({ code: -32003, refusal: 'not_allowed' });
    const badHeader = await client({ authorization: `Bearer ${OWNER_KEY}`, 'x-organization-id': 'not-a-uuid' });
    expect(await readError(badHeader, projectUri)).toMatchObject({ code: -32003, refusal: 'organization_header_invalid' });
    const agent = await client({ authorization: 'Bearer agent-token-holding:projects:read' });
    // An agent's token goes to identity's decisions only, never to its organization read.
    expect(await readError(agent, `stdreg://organizations/${ORG}`)).toMatchObject({
      code: -32003,
      message: expect.stringContaining("An organization's record is read with an API key"),
      refusal: 'not_allowed',
    });
  });

  it('names identity away as a tool call does, not as a denial', async () => {
    await identity.switchTo('error-500');
    try {
      const read = await readError(owner, projectUri);
      const call = await toolRefusal(owner, 'draft_split_project');
      expect({ read, call }).toEqual({
        read: { code: -32003, message: expect.stringContaining('identity unavailable'), refusal: 'authorization_unavailable' },
        call: 'authorization_unavailable',
      });
    } finally {
      await identity.switchTo('decide');
    }
  });
});
