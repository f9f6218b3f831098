// Runs only when the test run has Redis (see jest.config.cjs). The limiter refuses or passes a call
// before anything is asked upstream, so these gateways need no standards-api or identity.
import { randomUUID } from 'node:crypto';
import { CuttableProxy } from '@stdreg/server-kit/testing';
import { startGateway, type RunningGateway } from '../support/gateway';

const NOWHERE = 'http://127.0.0.1:9';
const PER_KEY = 4;

function toolCall(gateway: RunningGateway, key: string): Promise<Response> {
  return fetch(gateway.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
  });
}

async function redisReadiness(gateway: RunningGateway): Promise<string> {
  const body = (await (await fetch(`${gateway.url}/readyz`)).json()) as { checks: Record<string, string> };
  return body.checks['redis'] ?? 'absent';
}

async function eventually(probe: () => Promise<string>, wanted: string): Promise<string> {
  let value = await probe();
  for (let attempt = 0; attempt < 60 && value !== wanted; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await probe();
  }
  return value;
}

describe('tool-call limits shared by gateway replicas through Redis', () => {
  let redis: CuttableProxy;
  let replicas: [RunningGateway, RunningGateway];
  const key = () => `stdreg_app_${randomUUID()}`;

  beforeAll(async () => {
    redis = await CuttableProxy.start(process.env['REDIS_URL']!);
    const env = {
      STANDARDS_API_URL: NOWHERE,
      IDENTITY_URL: NOWHERE,
      REDIS_URL: redis.through(process.env['REDIS_URL']!),
      REDIS_KEY_PREFIX: `stdreg-test:${randomUUID()}:`,
      MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: String(PER_KEY),
      MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '100000',
    };
    replicas = [await startGateway(env), await startGateway(env)];
    // As behind a load balancer: a replica gets calls once it is ready, which includes its Redis connection.
    for (const replica of replicas) expect(await eventually(() => redisReadiness(replica), 'up')).toBe('up');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis.close();
  });

  it('counts one key against one bucket, whichever replica each call reaches', async () => {
    const agent = key();
    const statuses = [];
    for (let call = 0; call < PER_KEY + 2; call++) statuses.push((await toolCall(replicas[call % 2]!, agent)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await toolCall(replicas[1], key())).status).toBe(200);
  });

  it('allows exactly the burst when many calls reach both replicas at once', async () => {
    const agent = key();
    const statuses = await Promise.all(Array.from({ length: 24 }, (_, call) => toolCall(replicas[call % 2]!, agent).then((r) => r.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_KEY);
    expect(statuses.filter((status) => status === 429)).toHaveLength(24 - PER_KEY);
  });

  it('refuses tool calls with 503 while Redis is away, is not ready then, and recovers when Redis returns', async () => {
    const agent = key();
    expect(await redisReadiness(replicas[0])).toBe('up');
    await redis.cut();
    expect(await eventually(() => redisReadiness(replicas[0]), 'down')).toBe('down');
    const refused = await toolCall(replicas[0], agent);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('unavailable') } });

    await redis.restore();
    expect(await eventually(() => redisReadiness(replicas[0]), 'up')).toBe('up');
    expect((await toolCall(replicas[0], agent)).status).toBe(200);
  });
});
