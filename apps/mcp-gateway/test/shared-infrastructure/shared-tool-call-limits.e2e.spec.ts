// Runs only when the test run has Redis (see jest.config.cjs). The limiter refuses or passes a call
// before anything is asked upstream, so these gateways need no standards-api or identity.
import { randomUUID } from 'node:crypto';
import { CuttableProxy, postMcp } from '@stdreg/server-kit/testing';
import { startGateway, type RunningGateway } from '../support/gateway';

const NOWHERE = 'http://127.0.0.1:9';
// A bucket's capacity is its per-minute count, so a small one refills one token in 12 to 15 s: 200
// concurrent calls are answered long before a refill could admit one more than the burst.
const PER_KEY = 4;
const PER_IP = 5;
const CONCURRENT = 200;

function toolCall(gateway: RunningGateway, key: string): Promise<Response> {
  return postMcp(gateway.mcpUrl, key, { id: 1, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
}

/** `CONCURRENT` tool calls at once, alternating between the two replicas; `keyOf(i)` is the i-th call's key. */
function concurrentCalls(replicas: RunningGateway[], keyOf: (call: number) => string): Promise<number[]> {
  return Promise.all(
    Array.from({ length: CONCURRENT }, (_, call) => toolCall(replicas[call % replicas.length]!, keyOf(call)).then((r) => r.status)),
  );
}

const count = (statuses: number[], wanted: number) => statuses.filter((status) => status === wanted).length;

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

const key = () => `stdreg_app_${randomUUID()}`;

/** Two gateway replicas on one Redis (through `redis`), with these tool-call limits. */
async function startReplicas(redis: CuttableProxy, perKey: number, perIp: number): Promise<[RunningGateway, RunningGateway]> {
  const env = {
    STANDARDS_API_URL: NOWHERE,
    IDENTITY_URL: NOWHERE,
    REDIS_URL: redis.through(process.env['REDIS_URL']!),
    REDIS_KEY_PREFIX: `stdreg-test:${randomUUID()}:`,
    MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: String(perKey),
    MCP_TOOL_CALLS_PER_MINUTE_PER_IP: String(perIp),
  };
  const replicas: [RunningGateway, RunningGateway] = [await startGateway(env), await startGateway(env)];
  // As behind a load balancer: a replica gets calls once it is ready, which includes its Redis connection.
  for (const replica of replicas) expect(await eventually(() => redisReadiness(replica), 'up')).toBe('up');
  return replicas;
}

describe('tool-call limits shared by gateway replicas through Redis', () => {
  let redis: CuttableProxy;
  let replicas: [RunningGateway, RunningGateway];

  beforeAll(async () => {
    redis = await CuttableProxy.start(process.env['REDIS_URL']!);
    replicas = await startReplicas(redis, PER_KEY, 100_000);
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

  it('answers a key refused again and again with the same wait: a refused call takes no token', async () => {
    const agent = key();
    for (let call = 0; call < PER_KEY; call++) expect((await toolCall(replicas[call % 2]!, agent)).status).toBe(200);
    // One token back takes 60 / PER_KEY = 15 s, however often the key knocks in the meantime.
    const waits = [];
    for (let call = 0; call < 6; call++) {
      const refused = await toolCall(replicas[call % 2]!, agent);
      expect(refused.status).toBe(429);
      waits.push(Number(refused.headers.get('retry-after')));
    }
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(60 / PER_KEY);
  });

  it('still refuses a drained key a few seconds later: its bucket is kept in Redis until it would be full again', async () => {
    const agent = key();
    for (let call = 0; call < PER_KEY; call++) expect((await toolCall(replicas[call % 2]!, agent)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await toolCall(replicas[0], agent)).status).toBe(429);
    expect((await toolCall(replicas[1], agent)).status).toBe(429);
  });

  it('allows exactly the key bucket of 200 calls with one key reaching both replicas at once', async () => {
    const agent = key();
    const statuses = await concurrentCalls(replicas, () => agent);
    expect(count(statuses, 200)).toBe(PER_KEY);
    expect(count(statuses, 429)).toBe(CONCURRENT - PER_KEY);
  });

  it('refuses every one of 200 calls at both replicas with 503 while Redis is away, lets none through, and recovers', async () => {
    const agent = key();
    expect(await redisReadiness(replicas[0])).toBe('up');
    await redis.cut();
    const statuses = await concurrentCalls(replicas, () => agent);
    expect(count(statuses, 503)).toBe(CONCURRENT);
    for (const replica of replicas) expect(await eventually(() => redisReadiness(replica), 'down')).toBe('down');
    const refused = await toolCall(replicas[0], agent);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('unavailable') } });

    await redis.restore();
    for (const replica of replicas) expect(await eventually(() => redisReadiness(replica), 'up')).toBe('up');
    expect((await toolCall(replicas[0], agent)).status).toBe(200);
    expect((await toolCall(replicas[1], agent)).status).toBe(200);
  });
});

describe('the per-address tool-call bucket shared by gateway replicas', () => {
  let redis: CuttableProxy;
  let replicas: [RunningGateway, RunningGateway];

  beforeAll(async () => {
    redis = await CuttableProxy.start(process.env['REDIS_URL']!);
    replicas = await startReplicas(redis, 100_000, PER_IP);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis.close();
  });

  it('allows exactly the address bucket of 200 calls with 200 keys from one address reaching both replicas at once', async () => {
    const statuses = await concurrentCalls(replicas, () => key());
    expect(count(statuses, 200)).toBe(PER_IP);
    expect(count(statuses, 429)).toBe(CONCURRENT - PER_IP);
  });

  it('refuses every call with 503 while Redis is away, whatever its key', async () => {
    await redis.cut();
    const statuses = await concurrentCalls(replicas, () => key());
    expect(count(statuses, 503)).toBe(CONCURRENT);
    await redis.restore();
    for (const replica of replicas) expect(await eventually(() => redisReadiness(replica), 'up')).toBe('up');
  });
});
