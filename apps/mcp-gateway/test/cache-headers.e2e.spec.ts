import { randomUUID } from 'node:crypto';
import { FakeIdentity, postMcp } from '@stdreg/server-kit/testing';
import { validToolCalls } from './support/examples';
import { startGateway, type RunningGateway } from './support/gateway';
import { PLATFORM_START_TIMEOUT_MS } from './support/platform';
import { startStandardsApiBesideFake, type StandardsApiBesideFake } from './support/standards-api-beside-fake';

const ORG = randomUUID();
const OWNER_KEY = `stdreg_app_owner_of:${ORG}`;
const identity = new FakeIdentity();
let standardsApi: StandardsApiBesideFake;
let gateway: RunningGateway;

beforeAll(async () => {
  await identity.start();
  standardsApi = await startStandardsApiBesideFake(identity.url, 'cache-headers');
  gateway = await startGateway({
    STANDARDS_API_URL: standardsApi.url,
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_READ_CACHE_MS: '0',
  });
}, PLATFORM_START_TIMEOUT_MS);
afterAll(async () => {
  await gateway?.close();
  await standardsApi?.stop();
  await identity.stop();
});

describe('what caches may keep', () => {
  it("stores no answer of the MCP endpoint: a tool's organization data, a resource, a refusal", async () => {
    const drafted = await postMcp(gateway.mcpUrl, OWNER_KEY, {
      id: 1,
      method: 'tools/call',
      params: { name: 'draft_split_project', arguments: validToolCalls()['draft_split_project'] },
    });
    const { result } = (await drafted.json()) as { result: { structuredContent: { resourceUri: string } } };
    const read = await postMcp(gateway.mcpUrl, OWNER_KEY, {
      id: 2,
      method: 'resources/read',
      params: { uri: result.structuredContent.resourceUri },
    });
    const refused = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'draft_split_project', arguments: validToolCalls()['draft_split_project'] },
      }),
    });
    expect([drafted.status, read.status, refused.status]).toEqual([200, 200, 401]);
    expect([drafted, read, refused].map((answer) => answer.headers.get('cache-control'))).toEqual(['no-store', 'no-store', 'no-store']);
  });

  it('lets anyone keep the public protected-resource metadata for a while', async () => {
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', gateway.mcpUrl));
    expect(metadata.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
