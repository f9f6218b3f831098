// A refused tools/call carries a code beside its words (`_meta["stdreg.dev/refusal"]`), typed in the contracts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_REFUSAL_META, type ToolRefusalCode } from '@stdreg/contracts';
import { sampleScenario, validToolCalls } from './support/examples';
import { connectClient, startGatewayOn, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';

let platform: Platform;
let gateway: RunningGateway;
let agent: { secret: string; organizationId: string };
const clients: Client[] = [];

async function client(headers: Record<string, string>): Promise<Client> {
  const connected = await connectClient(gateway.mcpUrl, headers);
  clients.push(connected);
  return connected;
}

async function refusalCode(on: Client, name: string, args: Record<string, unknown>): Promise<ToolRefusalCode | undefined> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return (result._meta?.[TOOL_REFUSAL_META] as { code?: ToolRefusalCode } | undefined)?.code;
}

beforeAll(async () => {
  platform = await startPlatform();
  gateway = await startGatewayOn(platform);
  agent = await platform.newAppKey();
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  for (const connected of clients) await connected.close();
  await gateway?.close();
  await platform?.stop();
});

describe('the codes of refused tool calls', () => {
  const draft = () => validToolCalls()['draft_split_project']!;

  it('names why the gateway refused the caller', async () => {
    expect(await refusalCode(await client({ authorization: 'Bearer stdreg_app_unknown_key' }), 'draft_split_project', draft())).toBe(
      'not_allowed',
    );
    expect(await refusalCode(await client({ authorization: `Bearer ${platform.platformKey}` }), 'draft_split_project', draft())).toBe(
      'organization_required',
    );
    // A malformed X-Organization-Id is refused, never read as no header (the key's own organization).
    const badHeader = await client({ authorization: `Bearer ${agent.secret}`, 'x-organization-id': 'not-a-uuid' });
    expect(await refusalCode(badHeader, 'draft_split_project', draft())).toBe('organization_header_invalid');
  });

  it("names the tool's own refusals: arguments that do not fit, content that breaks a rule", async () => {
    const keyed = await client({ authorization: `Bearer ${agent.secret}` });
    expect(await refusalCode(keyed, 'draft_split_project', { name: 'X' })).toBe('invalid_arguments');
    const mismatched = { name: 'X', currency: 'USD', templateVersion: '2.0', scenario: { name: 'B', content: sampleScenario() } };
    expect(await refusalCode(keyed, 'draft_split_project', mismatched)).toBe('tool_refused');
  });

  it("carries standards-api's own code when standards-api refused the draft", async () => {
    const other = await platform.newAppKey();
    const intruder = await client({ authorization: `Bearer ${other.secret}`, 'x-organization-id': agent.organizationId });
    expect(await refusalCode(intruder, 'draft_split_project', draft())).toBe('authorization.denied');
  });
});
