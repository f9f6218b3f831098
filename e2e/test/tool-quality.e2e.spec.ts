import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '@stdreg/server-kit/testing';
import { brokenFloors, loadCases, parseFloors, runEval, type CallTool } from '../src/tool-quality';
import { startPlatform, type Platform } from '../src/platform';

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform({ MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '100000', MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '100000' });
}, 180_000);
afterAll(async () => {
  await platform?.stop();
});

async function appKey(): Promise<string> {
  const asPlatform = { authorization: `Bearer ${platform.platformKey}`, 'content-type': 'application/json' };
  const organization = (await (
    await fetch(`${platform.identityUrl}/v1/organizations`, {
      method: 'POST',
      headers: asPlatform,
      body: JSON.stringify({ name: 'Eval Org' }),
    })
  ).json()) as { id: string };
  const issued = (await (
    await fetch(`${platform.identityUrl}/v1/keys`, {
      method: 'POST',
      headers: asPlatform,
      body: JSON.stringify({ name: 'eval agent', class: 'app', organizationId: organization.id }),
    })
  ).json()) as { secret: string };
  return issued.secret;
}

describe('the free-text tools on the labelled cases of tools/eval, through the built gateway', () => {
  it('keeps every figure at or above the floors recorded in docs/tool-quality.md', async () => {
    const secret = await appKey();
    let id = 0;
    const call: CallTool = async (name, args) => {
      const answer = await fetch(platform.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = (await answer.json()) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } };
      return body.result && !body.result.isError ? (body.result.structuredContent ?? null) : null;
    };
    const floors = parseFloors(await readFile(path.join(ROOT, 'docs/tool-quality.md'), 'utf8'));
    expect(floors.length).toBeGreaterThan(0);
    const { figures } = await runEval(loadCases(), call);
    expect(brokenFloors(figures, floors)).toEqual([]);
  }, 240_000);
});
