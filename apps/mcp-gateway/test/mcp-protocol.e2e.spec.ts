import { request as httpRequest } from 'node:http';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';

const TOOL_NAMES = [
  'resolve_term',
  'validate_standard_reference',
  'validate_taskspec',
  'compare_standard_versions',
  'draft_alignment_report',
  'recommend_role',
  'draft_onboarding_profile',
  'assess_readiness',
  'propose_task_path',
  'simulate_operating_plan',
  'draft_split_project',
  'validate_split_rule',
  'calculate_draft_settlement',
  'explain_settlement',
  'compare_rule_versions',
  'draft_invitation',
];

let platform: Platform;
let gateway: RunningGateway;
let client: Client;

function rpc(body: unknown, headers: Record<string, string> = {}, url = gateway.mcpUrl): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** fetch cannot set Host, so this one goes through node:http. */
function postWithHost(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      gateway.mcpUrl,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(initialize('2025-11-25')));
  });
}

/** A gateway of its own with the limits given, closed after `use`. */
async function withLimitedGateway(limits: Record<string, string>, use: (limited: RunningGateway) => Promise<void>): Promise<void> {
  const limited = await startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    ...limits,
  });
  try {
    await use(limited);
  } finally {
    await limited.close();
  }
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

beforeAll(async () => {
  platform = await startPlatform();
  gateway = await startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
    MCP_ALLOWED_ORIGINS: 'https://agent.example',
  });
  client = await connectClient(gateway.mcpUrl);
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await platform?.stop();
});

describe('the MCP endpoint', () => {
  it('answers initialize with protocol version 2025-11-25 whatever version the client asks for', async () => {
    for (const asked of ['2025-11-25', '2025-06-18', '1999-01-01']) {
      const response = await rpc(initialize(asked));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result: { protocolVersion: string; capabilities: Record<string, unknown> } };
      expect(body.result.protocolVersion).toBe('2025-11-25');
      expect(Object.keys(body.result.capabilities).sort()).toEqual(['completions', 'logging', 'resources', 'tools']);
    }
  });

  it('refuses a request naming another protocol version with 400', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': '2025-06-18' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('2025-11-25') } });
    expect((await rpc({ jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' })).status).toBe(200);
  });

  it('answers GET and DELETE with 405: there are no sessions or streams', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(gateway.mcpUrl, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a foreign Host or Origin with 403 and accepts a configured origin', async () => {
    expect(await postWithHost('evil.example.com')).toBe(403);
    expect(await postWithHost(`localhost:${new URL(gateway.url).port}`)).toBe(200);
    expect((await rpc(initialize('2025-11-25'), { origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await rpc(initialize('2025-11-25'), { origin: 'https://agent.example' })).status).toBe(200);
  });

  it('refuses a body over the size limit with 413 and a body that is not JSON with a parse error, both as JSON-RPC', async () => {
    const large = await rpc({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'resolve_term', arguments: { text: 'x'.repeat(600 * 1024) } },
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    const garbled = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });

  it('refuses JSON that is no JSON-RPC message (a null id, no jsonrpc, a numeric method) as an invalid request (-32600), not a parse error', async () => {
    for (const body of [
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: null, method: 'ping' },
      ],
      [],
    ]) {
      const answer = await rpc(body, { 'mcp-protocol-version': '2025-11-25' });
      expect({ body, status: answer.status, answer: await answer.json() }).toEqual({
        body,
        status: 400,
        answer: { jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('Invalid Request') }, id: null },
      });
    }
    // A body of another media type is no JSON the gateway read: the SDK's 415 stays.
    const text = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-protocol-version': '2025-11-25', 'content-type': 'text/plain' },
    );
    expect(text.status).toBe(415);
  });

  it('refuses a bearer longer than any credential the platform issues with 401, without asking identity', async () => {
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'revenue share' } } };
    const long = await rpc(call, { authorization: `Bearer ${'a'.repeat(8193)}` });
    expect(long.status).toBe(401);
    expect(long.headers.get('www-authenticate')).toContain('invalid_token');
    expect(await long.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('longer than any') } });
  });

  it('refuses JSON nested 2000 deep as an invalid JSON-RPC request', async () => {
    const deep = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"resolve_term","arguments":{"text":${'['.repeat(2000)}${']'.repeat(2000)}}}}`,
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('deeper than') },
      id: null,
    });
    const nul = await rpc({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'resolve_term', arguments: { text: 'a\u0000b' } },
    });
    expect(nul.status).toBe(400);
  });

  it.each([
    ['tools/call with a numeric name', 'tools/call', { name: 42, arguments: {} }, 'params.name'],
    ['tools/call with arguments that are not an object', 'tools/call', { name: 'resolve_term', arguments: 'text' }, 'params.arguments'],
    ['resources/read with a numeric uri', 'resources/read', { uri: 7 }, 'params.uri'],
    [
      'completion/complete with a malformed ref',
      'completion/complete',
      { ref: { type: 'ref/nothing' }, argument: { name: 'a', value: 'b' } },
      'params.ref',
    ],
  ])('answers %s with -32602 and a message a person can read', async (_, method, params, field) => {
    const answer = await rpc({ jsonrpc: '2.0', id: 8, method, params }, { 'mcp-protocol-version': '2025-11-25' });
    const body = (await answer.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(8);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain(`Invalid params for ${method}: ${field}`);
    expect(body.error.message).not.toContain('"code":');
  });

  it('keeps wrongly typed tool arguments a tool error the model can read', async () => {
    const partner = await platform.newAppKey();
    const answer = await rpc(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 42 } } },
      { authorization: `Bearer ${partner.secret}`, 'mcp-protocol-version': '2025-11-25' },
    );
    const body = (await answer.json()) as { result: { isError: boolean; content: { text: string }[] } };
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0]!.text).toContain('text');
  });

  it('lists the sixteen tools without a key, with 2020-12 schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
      expect(tool.outputSchema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
      expect(tool.annotations).toEqual(
        expect.objectContaining({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: false,
          idempotentHint: expect.any(Boolean),
          openWorldHint: false,
        }),
      );
      expect(tool.description!.length).toBeLessThanOrEqual(160);
    }
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint === false).map((tool) => tool.name)).toEqual(['draft_split_project']);
  });

  it('answers an unknown tool with JSON-RPC error -32602', async () => {
    const error = await client.callTool({ name: 'activate_split_project', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('answers a resource that does not exist with JSON-RPC error -32002', async () => {
    for (const uri of ['stdreg://standards/NOPE-1', 'stdreg://nothing/here', 'https://example.com/x', 'stdreg://manifest/other']) {
      const error = await client.readResource({ uri }).catch((e: unknown) => e);
      expect({ uri, code: (error as McpError).code }).toEqual({ uri, code: -32002 });
    }
  });

  it('refuses any cursor on tools/list with -32602: the tools come in one page, so no cursor is one it gave', async () => {
    for (const cursor of ['bm90LWEtbnVtYmVy', 'MQ', '']) {
      const error = await client.listTools({ cursor }).catch((e: unknown) => e);
      expect({ cursor, code: (error as McpError).code }).toEqual({ cursor, code: ErrorCode.InvalidParams });
    }
    expect((await client.listTools()).nextCursor).toBeUndefined();
  });

  it('answers a request asking for a task as a plain request: the gateway declares no tasks capability, so it ignores the task', async () => {
    const partner = await platform.newAppKey();
    const headers = { authorization: `Bearer ${partner.secret}`, 'mcp-protocol-version': '2025-11-25' };
    const call = await rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'resolve_term', arguments: { text: 'settlement' }, task: { ttl: 60_000 } },
      },
      headers,
    );
    const called = (await call.json()) as { result?: { isError?: boolean; structuredContent?: unknown }; error?: unknown };
    expect(called.error).toBeUndefined();
    expect(called.result).toEqual(expect.objectContaining({ structuredContent: expect.any(Object) }));
    expect(called.result!.isError).toBeUndefined();
    const listed = (await (await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { task: {} } }, headers)).json()) as {
      result?: { resources: unknown[] };
    };
    expect(listed.result?.resources.length).toBeGreaterThan(0);
  });

  it('answers ping and logging/setLevel', async () => {
    await expect(client.ping()).resolves.toEqual({});
    await expect(client.setLoggingLevel('warning')).resolves.toEqual({});
  });
});

describe('tool-call rate limits', () => {
  it('answers 429 with Retry-After once a key has used its tool calls', async () => {
    await withLimitedGateway({ MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '2' }, async (limited) => {
      const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } };
      const key = { authorization: 'Bearer stdreg_app_some_key', 'mcp-protocol-version': '2025-11-25' };
      expect((await rpc(call, key, limited.mcpUrl)).status).toBe(200);
      expect((await rpc(call, key, limited.mcpUrl)).status).toBe(200);
      const refused = await rpc(call, key, limited.mcpUrl);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await rpc(call, { ...key, authorization: 'Bearer stdreg_app_other_key' }, limited.mcpUrl)).status).toBe(200);
      expect((await rpc({ jsonrpc: '2.0', id: 6, method: 'tools/list' }, key, limited.mcpUrl)).status).toBe(200);
    });
  });

  it("counts a key's calls against the key, not the organization it names: another key naming it still calls", async () => {
    await withLimitedGateway({ MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '2' }, async (limited) => {
      const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } };
      const organization = { 'x-organization-id': '01900000-0000-7000-8000-0000000000aa', 'mcp-protocol-version': '2025-11-25' };
      const noisy = { ...organization, authorization: 'Bearer stdreg_app_noisy_key' };
      for (let i = 0; i < 2; i++) expect((await rpc(call, noisy, limited.mcpUrl)).status).toBe(200);
      expect((await rpc(call, noisy, limited.mcpUrl)).status).toBe(429);
      expect((await rpc(call, { ...organization, authorization: 'Bearer stdreg_app_quiet_key' }, limited.mcpUrl)).status).toBe(200);
    });
  });

  it('counts an address by the connection, not by an X-Forwarded-For it sends (no proxy is trusted by default)', async () => {
    await withLimitedGateway({ MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '2' }, async (limited) => {
      const call = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } };
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const headers = { authorization: `Bearer stdreg_app_rotating_${i}`, 'x-forwarded-for': `203.0.113.${i + 1}` };
        statuses.push((await rpc(call, { ...headers, 'mcp-protocol-version': '2025-11-25' }, limited.mcpUrl)).status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    });
  });

  it('refuses a JSON-RPC batch, of requests, notifications or responses, with 400 -32600 and no id, spending no tool-call token', async () => {
    await withLimitedGateway({ MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1' }, async (limited) => {
      const call = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'resolve_term', arguments: { text: 'cap' } },
      });
      const key = { authorization: 'Bearer stdreg_app_batch_key', 'mcp-protocol-version': '2025-11-25' };
      for (const batch of [
        [call(1), call(2)],
        [call(3)],
        [initialize('2025-11-25')],
        [{ jsonrpc: '2.0', method: 'notifications/initialized' }],
        [{ jsonrpc: '2.0', id: 4, result: {} }],
      ]) {
        for (const headers of [key, { authorization: key.authorization }]) {
          const refused = await rpc(batch, headers, limited.mcpUrl);
          expect({ batch, status: refused.status, answer: await refused.json() }).toEqual({
            batch,
            status: 400,
            answer: {
              jsonrpc: '2.0',
              error: { code: -32600, message: expect.stringContaining('a JSON-RPC batch is not an MCP 2025-11-25 message') },
              id: null,
            },
          });
        }
      }
      // The key's one call a minute is still there.
      expect((await rpc(call(5), key, limited.mcpUrl)).status).toBe(200);
      expect((await rpc(call(6), key, limited.mcpUrl)).status).toBe(429);
    });
  });
});
