import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { sampleScenario } from './support/examples';
import { connectClient, startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS, startPlatform, type Platform } from './support/platform';
import { startPartner, type Partner } from './support/signed-in-user';

let platform: Platform;
let gateway: RunningGateway;
let partner: Partner;
let agent: Client;

/** A formal write at standards-api in two steps (428 challenge, then the token), as the signed-in person. */
async function confirmed(path: string, body: Record<string, unknown>, token: string): Promise<Record<string, unknown>> {
  const headers = { Authorization: `Bearer ${token}`, 'X-Organization-Id': partner.organizationId, 'Content-Type': 'application/json' };
  const url = `${platform.standardsApiUrl}/api/v2${path}`;
  const challenge = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(challenge.status).toBe(428);
  const { confirmationToken } = (await challenge.json()) as { confirmationToken: string };
  const done = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ ...body, confirmationToken }) });
  expect(done.status).toBe(201);
  return (await done.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  platform = await startPlatform();
  gateway = await startGateway({
    STANDARDS_API_URL: platform.standardsApiUrl,
    IDENTITY_URL: platform.identityUrl,
    IDENTITY_SERVICE_TOKEN: platform.serviceToken,
  });
  partner = await startPartner(platform);
  agent = await connectClient(gateway.mcpUrl, { authorization: `Bearer ${partner.key}` });
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await agent?.close();
  await partner?.close();
  await gateway?.close();
  await platform?.stop();
});

describe('what a person posted, an agent reads', () => {
  it("shows a settlement run a signed-in approver posted, and the equity ledger it wrote, to the organization's key", async () => {
    const draft = await agent.callTool({
      name: 'draft_split_project',
      arguments: {
        name: 'Posted studio',
        currency: 'EUR',
        templateVersion: '2.0',
        scenario: { name: 'Baseline', content: sampleScenario() },
      },
    });
    const { project, scenario } = draft.structuredContent as { project: { id: string }; scenario: { id: string } };
    const approver = await partner.signedInUser(['project-owner', 'settlement-approver']);
    await confirmed(`/split-projects/${project.id}/activate`, { scenarioId: scenario.id }, approver);
    const run = await confirmed(
      `/split-projects/${project.id}/settlement-runs`,
      {
        periodId: '2026-01',
        revenue: '10000.00',
        costs: '0.00',
        periodEnd: new Date().toISOString(),
      },
      approver,
    );

    const read = await agent.readResource({ uri: `stdreg://settlement-runs/${run['id'] as string}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(run);
    const ledger = await agent.readResource({ uri: 'stdreg://equity-ledgers/LEI-ALICE-0002' });
    expect(JSON.parse((ledger.contents[0] as { text: string }).text)).toMatchObject({
      entries: [expect.objectContaining({ settlementRunId: run['id'], amount: '5700.00' })],
      balances: [{ currency: 'EUR', balance: '5700.00' }],
    });

    const other = await platform.newAppKey();
    const outsider = await connectClient(gateway.mcpUrl, {
      authorization: `Bearer ${other.secret}`,
      'x-organization-id': partner.organizationId,
    });
    const refused = (await outsider
      .readResource({ uri: `stdreg://settlement-runs/${run['id'] as string}` })
      .catch((e: unknown) => e)) as McpError;
    expect(refused.code).toBe(-32003);
    await outsider.close();
  });

  it("refuses a person's sign-in token for the standards API: the gateway accepts only tokens issued for itself", async () => {
    const owner = await partner.signedInUser(['project-owner']);
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'resolve_term', arguments: { text: 'cap' } } },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'draft_split_project',
          arguments: {
            name: 'Drafted by a person',
            currency: 'EUR',
            templateVersion: '2.0',
            scenario: { name: 'Baseline', content: sampleScenario() },
          },
        },
      },
    ]) {
      const response = await fetch(gateway.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${owner}`,
          'x-organization-id': partner.organizationId,
        },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", scope="registry:read projects:read projects:draft", resource_metadata="/,
      );
    }
  });
});
