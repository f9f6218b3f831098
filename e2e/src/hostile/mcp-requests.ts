// Requests at the gateway's MCP endpoint: JSON-RPC messages of every method it knows (tools called with
// arguments shaped by their own input schemas, resources read by their own URI templates), valid-ish or
// mutated, and messages no MCP client sends.
import fc from 'fast-check';
import { brokenJsonText, hostileJson, hostileText } from './hostile-values';
import { contentTypeHeaders, credentialHeaders, headerSafe, type Credentials, type HostileRequest } from './hostile-request';
import type { Schema } from './openapi-operations';
import { mutated, validish, type KnownValues } from './schema-values';

export interface McpSurface {
  tools: { name: string; inputSchema: Schema }[];
  /** URI templates of the resources, e.g. `stdreg://split-projects/{id}`, and the fixed resource URIs. */
  resourceUris: string[];
}

/** The tools and resources the gateway lists (what the fuzzer aims at). */
export async function fetchMcpSurface(mcpUrl: string, authorization: string): Promise<McpSurface> {
  const ask = async (method: string) => {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
    });
    return ((await response.json()) as { result: Record<string, unknown> }).result;
  };
  const tools = (await ask('tools/list'))['tools'] as McpSurface['tools'];
  const templates = ((await ask('resources/templates/list'))['resourceTemplates'] as { uriTemplate: string }[]).map((t) => t.uriTemplate);
  const fixed = ((await ask('resources/list'))['resources'] as { uri: string }[]).slice(0, 5).map((r) => r.uri);
  return { tools, resourceUris: [...templates, ...fixed] };
}

const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01', ''];

function params(surface: McpSurface, known: KnownValues): fc.Arbitrary<{ method: string; params?: unknown }> {
  const toolCall = fc
    .constantFrom(...surface.tools)
    .chain((tool) =>
      fc
        .oneof(validish(tool.inputSchema, known), mutated(tool.inputSchema, known), hostileJson())
        .map((args) => ({ method: 'tools/call', params: { name: tool.name, arguments: args } })),
    );
  const resourceRead = fc
    .tuple(
      fc.constantFrom(...surface.resourceUris),
      fc.oneof(
        fc.constantFrom(
          ...Object.values(known)
            .flat()
            .filter((v) => typeof v === 'string'),
        ),
        hostileText(),
      ),
    )
    .map(([template, value]) => ({ method: 'resources/read', params: { uri: template.replace(/\{[^}]+\}/g, value as string) } }));
  const initialize = fc
    .record(
      {
        protocolVersion: fc.oneof(fc.constantFrom(...PROTOCOL_VERSIONS), hostileText()),
        capabilities: fc.oneof(fc.constant({}), hostileJson()),
        clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '1' }), hostileJson()),
      },
      { requiredKeys: [] },
    )
    .map((p) => ({ method: 'initialize', params: p }));
  const other = fc
    .tuple(
      fc.constantFrom(
        'ping',
        'tools/list',
        'resources/list',
        'resources/templates/list',
        'prompts/list',
        'prompts/get',
        'completion/complete',
        'logging/setLevel',
        'resources/subscribe',
        'notifications/initialized',
        'notifications/cancelled',
        'sampling/createMessage',
        'tools/call',
        'resources/read',
      ),
      fc.option(
        fc.oneof(
          hostileJson(),
          fc.record({ cursor: hostileText(), name: hostileText(), uri: hostileText(), level: hostileText() }, { requiredKeys: [] }),
        ),
        { nil: undefined },
      ),
    )
    .map(([method, p]) => (p === undefined ? { method } : { method, params: p }));
  return fc.oneof(
    { weight: 4, arbitrary: toolCall },
    { weight: 2, arbitrary: resourceRead },
    { weight: 1, arbitrary: initialize },
    { weight: 2, arbitrary: other },
    { weight: 1, arbitrary: hostileText().map((method) => ({ method })) },
  );
}

function message(surface: McpSurface, known: KnownValues): fc.Arbitrary<unknown> {
  return fc
    .record({
      call: params(surface, known),
      id: fc.oneof(fc.nat(), fc.uuid(), fc.constant(null), fc.constant(undefined), hostileJson()),
      jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: hostileJson() }),
    })
    .map(({ call, id, jsonrpc }) => ({ jsonrpc, ...(id === undefined ? {} : { id }), ...call }));
}

const ACCEPTS = [
  'application/json, text/event-stream',
  'application/json, text/event-stream',
  'application/json',
  'text/event-stream',
  '*/*',
  '',
];

/** Requests at `path` (the gateway's /mcp), as the fuzzer sends them. */
export function mcpRequest(
  path: string,
  surface: McpSurface,
  known: KnownValues,
  credentials: Credentials,
  valid: string[],
): fc.Arbitrary<HostileRequest> {
  const bodyText = fc.oneof(
    { weight: 8, arbitrary: message(surface, known).map((m) => JSON.stringify(m)) },
    { weight: 1, arbitrary: fc.array(message(surface, known), { minLength: 0, maxLength: 3 }).map((batch) => JSON.stringify(batch)) },
    { weight: 1, arbitrary: hostileJson().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: brokenJsonText() },
  );
  return fc
    .record({
      method: fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT') }),
      body: fc.option(bodyText, { nil: undefined, freq: 15 }),
      accept: fc.oneof({ weight: 4, arbitrary: fc.constant(ACCEPTS[0]!) }, { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS) }),
      contentType: contentTypeHeaders(),
      credential: credentialHeaders(credentials, valid),
      extra: fc.array(
        fc.tuple(
          fc.constantFrom('mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'origin'),
          hostileText().map((text) => headerSafe(text)),
        ),
        { maxLength: 2 },
      ),
    })
    .map(({ method, body, accept, contentType, credential, extra }) => ({
      target: `${method} /mcp ${rpcMethodOf(body)}`.trimEnd(),
      method,
      path,
      headers: [...credential, ...(accept ? [['accept', accept] as [string, string]] : []), ...contentType, ...extra],
      ...(body === undefined ? {} : { body }),
    }));
}

/** The JSON-RPC method (and tool) a body names, for the report. */
function rpcMethodOf(body: string | undefined): string {
  try {
    const message = JSON.parse(body ?? '') as { method?: unknown; params?: { name?: unknown } };
    if (typeof message.method !== 'string') return '';
    return typeof message.params?.name === 'string' ? `${message.method} ${message.params.name}` : message.method;
  } catch {
    return '';
  }
}
