// The authorization fault matrix of the gateway: every tool (from tools/list) and every organization
// resource against every way identity can fail to answer. A tool call is refused (`Refused: Authorization
// could not be established…`), a resource read is -32003, nothing reaches standards-api, each cell is
// counted once as outcome="unavailable", and the same call works again once identity answers.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { FakeIdentity, FAULT_MODES, type FaultMode } from '@stdreg/server-kit/testing';
import { validToolCalls } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS } from './support/platform';
import { startStandardsApiBesideFake, type StandardsApiBesideFake } from './support/standards-api-beside-fake';
import { countRequests, type RequestCounter } from './support/request-counter';

const ORG = randomUUID();
const UNAVAILABLE = 'Authorization could not be established (identity unavailable); nothing was done. Retry later.';
const identity = new FakeIdentity();
let standardsApi: StandardsApiBesideFake;
let upstream: RequestCounter;
let gateway: RunningGateway;
let client: Client;
let projectUri: string;

/** The registry's templates, read anonymously and never asking identity; the others are the organization resources below. */
const PUBLIC_TEMPLATES = [
  'stdreg://manifest/current',
  'stdreg://glossary/current',
  'stdreg://glossary-page/{cursor}',
  'stdreg://standards/{sectionId}',
  'stdreg://taskspec/{taskCode}',
  'stdreg://roles/{role}',
  'stdreg://policy/{policyId}',
  'stdreg://brand/current',
  'stdreg://split-templates/{version}',
];

/** One organization resource per template, and what reading it answers once identity allows (-32002: no such run). */
const ORGANIZATION_RESOURCES: Record<string, { uri: () => string; allowed: 'read' | -32002 }> = {
  'stdreg://organizations/{id}': { uri: () => `stdreg://organizations/${ORG}`, allowed: 'read' },
  'stdreg://split-projects/{id}': { uri: () => projectUri, allowed: 'read' },
  'stdreg://settlement-runs/{id}': { uri: () => `stdreg://settlement-runs/${randomUUID()}`, allowed: -32002 },
  'stdreg://equity-ledgers/{legalEntityId}': { uri: () => 'stdreg://equity-ledgers/LEI-ALICE-0002', allowed: 'read' },
};

const TOOL_CALLS = validToolCalls();

async function call(name: string): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: TOOL_CALLS[name] })) as CallToolResult;
}

/** The JSON-RPC error of a read, or 'read' when it answered contents. */
async function read(uri: string): Promise<{ code: number; message: string } | 'read'> {
  return client.readResource({ uri }).then(
    () => 'read' as const,
    (error: McpError) => ({ code: error.code, message: error.message }),
  );
}

async function unavailableDecisions(): Promise<number> {
  const text = await fetch(`${gateway.url}/metrics`).then((response) => response.text());
  const line = text.split('\n').find((l) => l.startsWith('authorization_decisions_total{') && l.includes('outcome="unavailable"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Runs one cell: the fault set, `act` run, nothing reaching standards-api, one unavailable decision counted; identity back after. */
async function underFault<T>(fault: FaultMode, act: () => Promise<T>): Promise<T> {
  const reached = upstream.requests.length;
  const counted = await unavailableDecisions();
  await identity.switchTo(fault);
  try {
    const outcome = await act();
    expect(upstream.requests.slice(reached)).toEqual([]);
    expect((await unavailableDecisions()) - counted).toBe(1);
    return outcome;
  } finally {
    await identity.switchTo('decide');
  }
}

beforeAll(async () => {
  await identity.start();
  standardsApi = await startStandardsApiBesideFake(identity.url, 'matrix');
  upstream = await countRequests(standardsApi.url);
  gateway = await startGateway({
    STANDARDS_API_URL: upstream.url,
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    // Long enough that the fake identity, in this test's process, answers in time on a loaded machine once it is back.
    AUTHZ_TIMEOUT_MS: '1000',
    AUTHZ_READ_CACHE_MS: '0',
    MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '100000',
    MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '100000',
  });
  client = await connectClient(gateway.mcpUrl, { authorization: `Bearer stdreg_app_agent_of:${ORG}` });
  const drafted = await call('draft_split_project');
  if (drafted.isError) throw new Error(`draft_split_project: ${JSON.stringify(drafted.content)}`);
  projectUri = (drafted.structuredContent as { resourceUri: string }).resourceUri;
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await upstream?.close();
  await standardsApi?.stop();
  await identity.stop();
});

const TOOL_CELLS = Object.keys(TOOL_CALLS).flatMap((tool) => FAULT_MODES.map((fault) => [tool, fault] as [string, FaultMode]));
const RESOURCE_CELLS = Object.keys(ORGANIZATION_RESOURCES).flatMap((template) =>
  FAULT_MODES.map((fault) => [template, fault] as [string, FaultMode]),
);
let unavailableBefore = 0;

describe('the authorization fault matrix of the gateway', () => {
  it('covers every tool of tools/list and every organization resource template', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(Object.keys(TOOL_CALLS).sort());
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates.filter((template) => !PUBLIC_TEMPLATES.includes(template)).sort()).toEqual(Object.keys(ORGANIZATION_RESOURCES).sort());
    unavailableBefore = await unavailableDecisions();
  });

  it.each(TOOL_CELLS)('%s is refused, reaching nothing, when identity answers %s; and works once identity is back', async (tool, fault) => {
    const refused = await underFault(fault, () => call(tool));
    expect({ tool, fault, isError: refused.isError, content: refused.content }).toEqual({
      tool,
      fault,
      isError: true,
      content: [{ type: 'text', text: `Refused: ${UNAVAILABLE}` }],
    });
    const recovered = await call(tool);
    expect({ tool, failed: recovered.isError ? recovered.content : false }).toEqual({ tool, failed: false });
  });

  it.each(RESOURCE_CELLS)(
    '%s is -32003, reaching nothing, when identity answers %s; and reads once identity is back',
    async (template, fault) => {
      const resource = ORGANIZATION_RESOURCES[template]!;
      expect(await underFault(fault, () => read(resource.uri()))).toEqual({ code: -32003, message: expect.stringContaining(UNAVAILABLE) });
      const recovered = await read(resource.uri());
      const outcome = recovered === 'read' ? 'read' : recovered.code;
      // With the whole answer when it is not the one expected, so that a failure says what the gateway answered.
      expect({ outcome, answer: outcome === resource.allowed ? null : recovered }).toEqual({ outcome: resource.allowed, answer: null });
    },
  );

  it('counted exactly one outcome="unavailable" decision per cell', async () => {
    expect((await unavailableDecisions()) - unavailableBefore).toBe(TOOL_CELLS.length + RESOURCE_CELLS.length);
  });
});
