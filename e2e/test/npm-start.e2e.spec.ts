import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IssuedKeyDto, WaitlistApprovalDto, WaitlistRequestDto } from '@stdreg/contracts';
import { sampleScenario, type CuttableProxy } from '@stdreg/server-kit/testing';
import { call } from '../src/http';
import { startWithNpmStart, type NpmStartPlatform } from '../src/npm-start';

// `npm start` on its embedded defaults, left idle past the database pool's idle timeout, and with the
// database connection dropped under a request: every service must go on serving keyed requests, and
// readiness must say whether it can. The idle timeout is made short here (the walkthrough spec idles
// past the real default of 10 s).
const POOL_IDLE_TIMEOUT_MS = 300;
const IDLE_MS = 1500;

const idle = () => new Promise((resolve) => setTimeout(resolve, IDLE_MS));

let platform: NpmStartPlatform;
let appKey: IssuedKeyDto;

beforeAll(async () => {
  platform = await startWithNpmStart({
    DATABASE_POOL_IDLE_TIMEOUT_MS: String(POOL_IDLE_TIMEOUT_MS),
    // The event relay and the webhook dispatcher look for work every 250 ms by default, which keeps a
    // pooled connection from ever idling out; here they look rarely (they are still woken by their own
    // process's events), so the connections this test is about do idle out.
    EVENT_RELAY_INTERVAL_MS: '60000',
    WEBHOOK_POLL_INTERVAL_MS: '60000',
    // A shell that exports it (a production machine, a habit): npm start is still the development trial.
    NODE_ENV: 'production',
  });
  const asked = await call<WaitlistRequestDto>('POST', `${platform.identityUrl}/v1/waitlist`, {
    body: { organizationName: 'Idle Studio', contactName: 'Ana Idle', contactEmail: 'ana@idle.example', useCase: 'idling' },
    expect: 201,
  });
  const approval = await call<WaitlistApprovalDto>('POST', `${platform.identityUrl}/v1/waitlist/${asked.body.id}/approve`, {
    token: platform.platformKey,
    body: {},
    expect: 200,
  });
  appKey = approval.body.issued;
}, 180_000);
afterAll(async () => {
  await platform?.stop();
});

/** One keyed request to each service: identity's key list, a draft at standards-api, a tool call at the gateway. */
async function keyedRequestAtEachService(): Promise<{ identity: number; standardsApi: number; gateway: string }> {
  const identity = await fetch(`${platform.identityUrl}/v1/keys`, { headers: { authorization: `Bearer ${platform.platformKey}` } });
  const standardsApi = await fetch(`${platform.standardsApiUrl}/api/v2/split-projects`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${appKey.secret}`,
      'x-organization-id': appKey.key.organizationId!,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      name: 'Idle draft',
      currency: 'EUR',
      templateVersion: '1.0',
      scenario: { name: 'Base', content: sampleScenario() },
    }),
  });
  const agent = new Client({ name: 'idle-agent', version: '1.0.0' });
  let gateway: string;
  try {
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(platform.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${appKey.secret}` } },
      }),
    );
    const result = await agent.callTool({ name: 'resolve_term', arguments: { text: 'revenue share' } });
    gateway = result.isError ? `tool error: ${JSON.stringify(result.content)}` : 'ok';
  } catch (error) {
    gateway = `failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await agent.close();
  }
  return { identity: identity.status, standardsApi: standardsApi.status, gateway };
}

async function readiness(): Promise<number[]> {
  const urls = [platform.identityUrl, platform.standardsApiUrl, platform.mcpUrl.replace(/\/mcp$/, '')];
  return Promise.all(urls.map(async (url) => (await fetch(`${url}/readyz`)).status));
}

const SERVED = { identity: 200, standardsApi: 201, gateway: 'ok' };

describe('npm start on the embedded defaults', () => {
  it('serves a keyed request at every service after sitting idle past the database pool timeout', async () => {
    expect(await keyedRequestAtEachService()).toEqual(SERVED);
    await idle();
    expect(await readiness()).toEqual([200, 200, 200]);
    expect(await keyedRequestAtEachService()).toEqual(SERVED);
    await idle();
    expect(await keyedRequestAtEachService()).toEqual(SERVED);
  });

  it('serves keyed requests again after the database connection dropped under a request', async () => {
    const proxies: CuttableProxy[] = await platform.interposeOnDatabases();
    await idle(); // the direct connections close; the next ones go through the proxies
    expect(await keyedRequestAtEachService()).toEqual(SERVED);

    for (const proxy of proxies) proxy.dropNextRequest();
    await keyedRequestAtEachService(); // a request under way loses its connection: its answer is not the point
    expect(proxies.map((proxy) => proxy.droppedConnections)).toEqual([1, 1]);

    expect(await readiness()).toEqual([200, 200, 200]);
    expect(await keyedRequestAtEachService()).toEqual(SERVED);
    await idle();
    expect(await keyedRequestAtEachService()).toEqual(SERVED);
  });

  it('gives standards-api and the gateway a credential each, holding only the routes each calls: the gateway hands over no events', async () => {
    const credentials = await Promise.all(
      (['standards-api', 'mcp-gateway'] as const).map(
        async (service) => (await platform.environmentOf(service))['IDENTITY_SERVICE_TOKEN']!,
      ),
    );
    const [standardsApi, gateway] = credentials;
    expect(new Set(credentials).size).toBe(2);
    const post = async (route: string, token: string) => {
      const answer = await fetch(`${platform.identityUrl}/v1/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      return answer.status === 403 ? ((await answer.json()) as { domainCode: string }).domainCode : answer.status;
    };
    // A refused right is 403 before the route runs; a held one reaches the route, which refuses the empty body (400).
    expect({
      gatewayHandsOver: await post('events/handover', gateway!),
      standardsApiExchanges: await post('token-exchange', standardsApi!),
      standardsApiHandsOver: await post('events/handover', standardsApi!),
      gatewayExchanges: await post('token-exchange', gateway!),
    }).toEqual({
      gatewayHandsOver: 'decisions.service_right_missing',
      standardsApiExchanges: 'decisions.service_right_missing',
      standardsApiHandsOver: 400,
      gatewayExchanges: 400,
    });
  });
});
