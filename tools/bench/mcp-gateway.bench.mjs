// Tool-gateway benchmark: calls per second and latency of MCP `tools/call` through the built gateway
// (POST /mcp, a fresh stateless server per request, identity asked `tool:call` on every call).
// Scenarios:
//  - pure: calculate_draft_settlement (the split engine only, no standards-api read);
//  - registry, default cache: validate_standard_reference (registry reads cached per content release,
//    the manifest digest re-checked every REGISTRY_CACHE_SECONDS = 5 s);
//  - registry, cache 0: the same tool with REGISTRY_CACHE_SECONDS=0, so every call reads the manifest
//    from standards-api (one upstream GET per call, the document itself still cached for the release);
//  - registry, buckets in Redis: the cached registry call on a gateway whose tool-call buckets are in
//    Redis (REDIS_URL, as with several replicas), against the in-process buckets of the line above it;
//  - draft write: draft_split_project (a POST /api/v2/split-projects per call, which asks identity again).
// Redis: BENCH_REDIS_URL, default redis://127.0.0.1:6379 (keys under a random prefix).
// identity, standards-api and the gateway share CPU 0 (embedded PGlite databases in a temporary folder);
// autocannon (10 connections, 3 s discarded warm-up + 10 s) runs alone on CPU 1.
// Run from the repository root: `npm run bench:mcp` (builds the three services first). Prints a
// Markdown table; raw results go to tools/bench/results/mcp-gateway.json.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The valid scenario content the gateway tests use (plain data; Node strips the types).
import { sampleScenario } from '../../apps/mcp-gateway/test/support/examples.ts';
import {
  LOAD_CPU,
  ROOT,
  SERVER_CPU,
  assertOnlyStatus,
  autocannon,
  freePort,
  log,
  makeTempDir,
  request,
  run,
  startServer,
  waitForStatus,
} from './bench-kit.mjs';

const MAIN = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/mcp-gateway.json');
const LOAD = { connections: 10, pipelining: 1, warmupSeconds: 3, durationSeconds: 10 };
const serviceToken = randomBytes(32).toString('base64url');
const tempDir = makeTempDir('stdreg-bench-mcp-');

function baseEnv(dataDir) {
  const env = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  return env;
}

async function startService(app, portVariable, extra) {
  const port = await freePort();
  const dataDir = path.join(tempDir, `${app}-${port}`);
  mkdirSync(dataDir);
  log(`starting ${app} on port ${port}`);
  startServer(app, [MAIN(app)], { ...baseEnv(dataDir), [portVariable]: String(port), ...extra });
  await waitForStatus(app, port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}`, dataDir };
}

async function json(port, method, urlPath, headers, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const response = await request(port, {
    method,
    path: urlPath,
    body: payload,
    headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) },
  });
  const text = response.body.toString('utf8');
  if (response.status >= 300) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

function toolCall(name, args) {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
}

const SCENARIOS = [
  {
    name: 'pure',
    label: 'calculate_draft_settlement (pure)',
    gateway: 'default',
    body: toolCall('calculate_draft_settlement', { content: sampleScenario() }),
  },
  {
    name: 'registry-cached',
    label: 'validate_standard_reference (registry, cache 5 s)',
    gateway: 'default',
    body: toolCall('validate_standard_reference', { reference: 'RUL-3@1.0#2' }),
  },
  {
    name: 'registry-cached-redis',
    label: 'validate_standard_reference (registry, cache 5 s), tool-call buckets in Redis',
    gateway: 'redis',
    body: toolCall('validate_standard_reference', { reference: 'RUL-3@1.0#2' }),
  },
  {
    name: 'registry-uncached',
    label: 'validate_standard_reference (manifest read from standards-api every call)',
    gateway: 'uncached',
    body: toolCall('validate_standard_reference', { reference: 'RUL-3@1.0#2' }),
  },
  {
    name: 'draft-write',
    label: 'draft_split_project (POST to standards-api every call)',
    gateway: 'default',
    body: toolCall('draft_split_project', {
      name: 'Bench draft',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    }),
  },
];

async function main() {
  const startedAt = Date.now();
  for (const app of ['identity', 'standards-api', 'mcp-gateway'])
    if (!existsSync(MAIN(app))) throw new Error(`build ${app} first (npm run bench:mcp does)`);
  const identity = await startService('identity', 'IDENTITY_PORT', {
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
  });
  const platformKey = readFileSync(path.join(identity.dataDir, 'bootstrap-platform-key'), 'utf8').trim();
  const standardsApi = await startService('standards-api', 'STANDARDS_API_PORT', {
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
  });
  const gatewayEnv = {
    IDENTITY_URL: identity.url,
    STANDARDS_API_URL: standardsApi.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
    MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1000000',
    MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '1000000',
  };
  const gateways = {
    default: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', gatewayEnv),
    uncached: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', { ...gatewayEnv, REGISTRY_CACHE_SECONDS: '0' }),
    redis: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', {
      ...gatewayEnv,
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `stdreg-bench:${randomBytes(6).toString('hex')}:`,
    }),
  };

  const asPlatform = { Authorization: `Bearer ${platformKey}` };
  const organization = await json(identity.port, 'POST', '/v1/organizations', asPlatform, { name: 'Bench Org' });
  const key = await json(identity.port, 'POST', '/v1/keys', asPlatform, {
    name: 'bench agent',
    class: 'app',
    organizationId: organization.id,
  });
  const headers = {
    Authorization: `Bearer ${key.secret}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  };

  const rows = [];
  for (const scenario of SCENARIOS) {
    const gateway = gateways[scenario.gateway];
    const check = await request(gateway.port, { method: 'POST', path: '/mcp', headers, body: scenario.body });
    const answer = JSON.parse(check.body.toString('utf8'));
    if (check.status !== 200 || !answer.result || answer.result.isError)
      throw new Error(`${scenario.name}: the call does not succeed: ${check.body.toString('utf8').slice(0, 300)}`);
    const load = (seconds) =>
      autocannon({
        url: `${gateway.url}/mcp`,
        connections: LOAD.connections,
        pipelining: LOAD.pipelining,
        seconds,
        method: 'POST',
        headers: Object.entries(headers).map(([name, value]) => `${name}=${value}`),
        body: scenario.body,
      });
    log(`${scenario.name}: warm-up`);
    assertOnlyStatus(await load(LOAD.warmupSeconds), 200, `${scenario.name} warm-up`);
    log(`${scenario.name}: measuring`);
    const result = await load(LOAD.durationSeconds);
    assertOnlyStatus(result, 200, scenario.name);
    rows.push({
      scenario: scenario.name,
      label: scenario.label,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
    });
  }
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, load: LOAD, cpus: { services: SERVER_CPU, load: LOAD_CPU }, rows, seconds }, null, 2)}\n`,
  );
  console.log(
    [
      '| tools/call | calls/s | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: |',
      ...rows.map((row) => `| ${row.label} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} |`),
      '',
      `${LOAD.connections} connections, ${LOAD.warmupSeconds} s warm-up discarded, ${LOAD.durationSeconds} s measured; identity, standards-api and the gateway on CPU ${SERVER_CPU}, autocannon on CPU ${LOAD_CPU}; embedded PGlite.`,
      'Latency: autocannon whole milliseconds, truncated. Every call asks identity (tool:call); the draft write also asks it inside standards-api.',
      `Run time: ${seconds} s.`,
    ].join('\n'),
  );
}

run(main);
