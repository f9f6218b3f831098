// Identity benchmark: requests/s and latency of the built identity service on
//  1. the authorization decision (POST /v1/decisions: service-token check, app-key lookup, policy);
//     target p99 < 2 ms at 50 connections offering a steady 1 000/s. The steady load alternates, one
//     second each, between identity and a bare node:http server (bare-http-server.mjs) on the same CPU,
//     so the run also shows what the machine allowed any Node service at that moment; a CPU stall
//     probe (cpu-stall-probe.mjs) on both CPUs says how noisy the machine was;
//  2. the rate limiter's cost: GET /v1/apps/<registryId> with an app key (key auth, the limiter, the
//     app query) on an identity using Redis for its buckets, then on one using the in-process store;
//  3. the Redis limiter alone (redis-take.mjs): microseconds per take() of the services' Redis store.
// Identity runs pinned to CPU 0, autocannon (50 connections, 3 s discarded warm-up + 10 s) and the
// Redis script timer to CPU 1. The database is a throwaway one on this machine's PostgreSQL (dropped at
// the end; PG_ADMIN_URL overrides postgres://postgres@127.0.0.1:5432/postgres), or with --embedded the
// embedded PGlite. Redis: redis://127.0.0.1:6379, under a unique key prefix deleted at the end.
// Run from the repository root: `npm run bench:identity` (builds identity first). Prints Markdown
// tables; raw results go to tools/bench/results/identity.json. Exits non-zero only if the run failed.
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import {
  LOAD_CPU,
  ROOT,
  SERVER_CPU,
  assertOnlyStatus,
  autocannon,
  createBenchDatabase,
  freePort,
  log,
  makeTempDir,
  onCleanup,
  request,
  run,
  runJsonScript,
  startServer,
  stopChild,
  waitForStatus,
} from './bench-kit.mjs';

const IDENTITY_MAIN = path.join(ROOT, 'dist/apps/identity/main.js');
const BARE_SERVER = path.join(import.meta.dirname, 'bare-http-server.mjs');
const REDIS_TAKE = path.join(import.meta.dirname, 'redis-take.mjs');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/identity.json');

const LOAD = { connections: 50, pipelining: 1, warmupSeconds: 3, durationSeconds: 10 };
const DECISION_P99_TARGET_MS = 2;
const LIMITER_TAKES = 20_000;
const LIMITER_CONCURRENCY = 50;
const REDIS_URL = 'redis://127.0.0.1:6379';
// The brief asked for 100 000 000; IdentityConfig refuses anything above 100 000 (@Max(100000)), so the
// limiter runs with the highest limits it accepts: a 100 000-token burst refilled at 100 000/min
// (~1 667/s). That covers one 3 s + 10 s load of an app key up to ~9 300 req/s; above that the limiter
// would refuse (429), which the non-2xx check reports.
const RATE_LIMIT = 100_000;

const USAGE = 'usage: node tools/bench/identity.bench.mjs [--embedded]';
const cliArgs = process.argv.slice(2);
if (cliArgs.some((arg) => arg !== '--embedded')) {
  console.error(USAGE);
  process.exit(2);
}
const EMBEDDED = cliArgs.includes('--embedded');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const serviceToken = Array.from({ length: 40 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
const redisKeyPrefix = `bench:${randomBytes(6).toString('hex')}:`;
const databaseName = `identity_bench_${randomBytes(6).toString('hex')}`;
const tempDir = makeTempDir('identity-bench-');

/** Runs fn with a Redis connection that gives up quickly instead of retrying forever. */
async function withRedis(fn) {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

async function redisKeysUnderPrefix(redis) {
  const keys = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${redisKeyPrefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

async function deleteRedisKeys() {
  await withRedis(async (redis) => {
    const keys = await redisKeysUnderPrefix(redis);
    if (keys.length > 0) await redis.del(...keys);
  });
}

function identityEnv({ port, databaseUrl, redis }) {
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    IDENTITY_PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: tempDir,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
    RATE_LIMIT_APP_BURST: String(RATE_LIMIT),
    RATE_LIMIT_APP_PER_MINUTE: String(RATE_LIMIT),
    RATE_LIMIT_APP_WRITES_PER_MINUTE: String(RATE_LIMIT),
    RATE_LIMIT_PLATFORM_BURST: String(RATE_LIMIT),
    RATE_LIMIT_PLATFORM_PER_MINUTE: String(RATE_LIMIT),
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  if (redis) Object.assign(env, { REDIS_URL, REDIS_KEY_PREFIX: redisKeyPrefix });
  return env;
}

async function startIdentity(label, options) {
  const port = await freePort();
  log(`starting identity (${label}) on port ${port}`);
  const child = startServer(`identity (${label})`, [IDENTITY_MAIN], identityEnv({ port, ...options }));
  await waitForStatus(`identity (${label})`, port, '/readyz', 200);
  return { label, port, child };
}

/**
 * Stops an identity we are done with; a shutdown that is not clean is reported, not fatal. Nest's
 * shutdown hooks close the app, then re-raise the signal: ending by SIGTERM is the clean path, SIGKILL
 * means it was still running STOP_TIMEOUT_MS after SIGTERM.
 */
async function stopIdentity(instance) {
  const started = Date.now();
  const { code, signal } = await stopChild(instance.child);
  const clean = code === 0 || signal === 'SIGTERM';
  const stopMs = Date.now() - started;
  if (!clean) log(`WARNING: identity (${instance.label}) did not stop cleanly on SIGTERM (code ${code}, signal ${signal})`);
  return { instance: instance.label, code, signal, clean, stopMs };
}

/** One JSON API call; fails the run unless the status is the expected one. */
async function api(port, method, urlPath, token, body, expectedStatus) {
  const headers = { Authorization: `Bearer ${token}` };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  const response = await request(port, { method, path: urlPath, headers, body: payload });
  const text = response.body.toString('utf8');
  if (response.status !== expectedStatus) {
    throw new Error(`${method} ${urlPath} answered ${response.status} instead of ${expectedStatus}: ${text.slice(0, 500)}`);
  }
  return { json: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Organization, app key and app, created through the API with the bootstrap platform key. */
async function setUp(port) {
  const platformKey = readFileSync(path.join(tempDir, 'bootstrap-platform-key'), 'utf8').trim();
  const organization = (await api(port, 'POST', '/v1/organizations', platformKey, { name: 'Bench Org' }, 201)).json;
  const key = (await api(port, 'POST', '/v1/keys', platformKey, { name: 'bench', class: 'app', organizationId: organization.id }, 201))
    .json;
  const registration = (
    await api(port, 'POST', '/v1/apps', key.secret, { name: 'Bench', type: 'Traditional', redirectUris: ['https://bench.example/cb'] }, 201)
  ).json;
  return { organizationId: organization.id, appKey: key.secret, registryId: registration.app.registryId };
}

// A closed loop of 50 connections saturates one core and then measures queueing (Little's law:
// 50 in flight at N req/s is 50/N s each); a decision's own latency is measured with the same
// 50 connections offering a steady load below capacity.
const DECISION_OFFERED_RATE = 1000;
// Paired steady load: 40 s in 1 s slices, 20 s for each of identity and the bare server.
const PAIRED = { seconds: 40, sliceSeconds: 1 };
const STALL_PROBE_SECONDS = 5;
const STALL_PROBE = path.join(import.meta.dirname, 'cpu-stall-probe.mjs');

function decisionScenario(setup, connections, overallRate) {
  const body = {
    credential: { kind: 'api_key', value: setup.appKey },
    action: 'split-project:read',
    resource: { organizationId: setup.organizationId },
  };
  return {
    method: 'POST',
    path: '/v1/decisions',
    headers: { Authorization: `Bearer ${serviceToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    ...(overallRate ? { overallRate } : {}),
  };
}

function appGetScenario(setup) {
  return {
    method: 'GET',
    path: `/v1/apps/${setup.registryId}`,
    headers: { Authorization: `Bearer ${setup.appKey}` },
    connections: LOAD.connections,
  };
}

/** The request answers 200 once before we load it; returns the parsed body and the headers. */
async function checkOnce(port, scenario) {
  const response = await request(port, { method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body });
  const text = response.body.toString('utf8');
  if (response.status !== 200) throw new Error(`${scenario.method} ${scenario.path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { json: JSON.parse(text), headers: response.headers };
}

function load(port, scenario, seconds) {
  return autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: scenario.connections,
    pipelining: LOAD.pipelining,
    seconds,
    method: scenario.method,
    headers: Object.entries(scenario.headers).map(([name, value]) => `${name}=${value}`),
    body: scenario.body,
    ...(scenario.overallRate ? { overallRate: scenario.overallRate } : {}),
  });
}

async function measure(name, instance, scenario) {
  const label = `${name} on identity (${instance.label})`;
  assertOnlyStatus(await load(instance.port, scenario, LOAD.warmupSeconds), 200, `${label} (warm-up)`);
  const result = await load(instance.port, scenario, LOAD.durationSeconds);
  assertOnlyStatus(result, 200, label);
  const run = {
    scenario: name,
    identity: instance.label,
    connections: scenario.connections,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    littleMeanMs: (1000 * scenario.connections) / result.requests.average,
    non2xx: result.non2xx,
    autocannon: result,
  };
  log(`${label}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms (${run.connections} connections)`);
  return run;
}

/** The limiter ran on every request: a 200 now still carries its headers, and the tokens left say it never ran dry. */
async function limiterState(port, scenario) {
  const { headers } = await checkOnce(port, scenario);
  const limit = headers['x-ratelimit-limit'];
  const remaining = headers['x-ratelimit-remaining'];
  if (limit === undefined || remaining === undefined) throw new Error(`GET ${scenario.path} answered without X-RateLimit headers`);
  return { limit: Number(limit), remaining: Number(remaining) };
}

async function benchRedisInstance(databaseUrl) {
  const instance = await startIdentity('Redis limiter', { databaseUrl, redis: true });
  const setup = await setUp(instance.port);
  log(`set up: organization ${setup.organizationId}, app ${setup.registryId}`);
  const scenario = appGetScenario(setup);
  await limiterState(instance.port, scenario);
  const run = await measure('apps-get', instance, scenario);
  run.limiter = await limiterState(instance.port, scenario);
  run.redisBucketKeys = (await withRedis(redisKeysUnderPrefix)).length;
  if (run.redisBucketKeys === 0) throw new Error(`identity (Redis limiter) wrote no bucket under ${redisKeyPrefix} in Redis`);
  const exit = await stopIdentity(instance);
  return { setup, run, exit };
}

async function benchInProcessInstance(databaseUrl, setup) {
  const instance = await startIdentity('in-process limiter', { databaseUrl, redis: false });
  const scenario = appGetScenario(setup);
  await limiterState(instance.port, scenario);
  const run = await measure('apps-get', instance, scenario);
  run.limiter = await limiterState(instance.port, scenario);

  const decision = decisionScenario(setup, LOAD.connections);
  const check = (await checkOnce(instance.port, decision)).json;
  if (check.decision !== 'allow') throw new Error(`the decision was ${JSON.stringify(check)} instead of allow`);
  log(`decision check: ${check.decision} (${check.reason})`);
  const decisionRun = await measure('decision', instance, decision);
  const steady = await steadyPaired(instance, decision);
  const decisionSingle = await measure('decision', instance, decisionScenario(setup, 1));
  const exit = await stopIdentity(instance);
  return { run, decisionCheck: check, decisionRuns: [decisionRun, steady.decision, decisionSingle], steady, exit };
}

/** The steady load, alternating slice by slice between identity and the bare server on identity's CPU. */
async function steadyPaired(instance, scenario) {
  const port = await freePort();
  const bare = startServer('bare node:http server', [BARE_SERVER, String(port)], process.env);
  await waitForStatus('bare node:http server', port, '/readyz', 200);
  const stalls = await Promise.all(
    [SERVER_CPU, LOAD_CPU].map((cpu) => runJsonScript('cpu-stall-probe', STALL_PROBE, [STALL_PROBE_SECONDS], cpu)),
  );
  const paired = await pairedRun('steady decision', instance.port, scenario, { port, ...PAIRED });
  await stopChild(bare);
  return { decision: paired[0], floor: paired[1], stalls: { [SERVER_CPU]: stalls[0], [LOAD_CPU]: stalls[1] } };
}

const PACED_LOAD = path.join(import.meta.dirname, 'paced-load.mjs');

/**
 * 50 connections offering a steady Poisson load, alternating slice by slice between identity and the
 * bare server: the latency a caller sees, queueing included, one run per target.
 */
async function pairedRun(name, port, scenario, paired) {
  const result = await runJsonScript('paced-load', PACED_LOAD, [
    `http://127.0.0.1:${port}${scenario.path}`,
    scenario.method,
    JSON.stringify(scenario.headers),
    scenario.body,
    LOAD.connections,
    DECISION_OFFERED_RATE,
    LOAD.warmupSeconds,
    paired.seconds,
    `http://127.0.0.1:${paired.port}${scenario.path}`,
    paired.sliceSeconds,
  ]);
  const labels = ['identity', 'bare node:http'];
  return result.targets.map((measured, i) => toPacedRun(`${name} on ${labels[i]}`, labels[i], measured));
}

function toPacedRun(label, target, result) {
  const statuses = Object.keys(result.statusCounts);
  if (result.errors > 0 || statuses.length !== 1 || statuses[0] !== '200') {
    throw new Error(
      `${label}: expected only 200 responses, got ${JSON.stringify({ statusCounts: result.statusCounts, errors: result.errors })}`,
    );
  }
  const ms = (micros) => micros / 1000;
  const run = {
    scenario: 'decision-paced',
    identity: target,
    connections: LOAD.connections,
    requests: result.requests,
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: ms(result.latencyMicros.p50),
    p90Ms: ms(result.latencyMicros.p90),
    p99Ms: ms(result.latencyMicros.p99),
    p999Ms: ms(result.latencyMicros.p999),
    maxMs: ms(result.latencyMicros.max),
    littleMeanMs: (1000 * LOAD.connections) / result.requestsPerSecond,
    non2xx: 0,
    paced: result,
  };
  log(
    `${label} paced at ${DECISION_OFFERED_RATE}/s over ${LOAD.connections} connections: p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms ` +
      `(from dispatch: p99 ${ms(result.serviceMicros.p99)} ms; loader lateness p99 ${ms(result.loaderLatenessMicros.p99)} ms)`,
  );
  return run;
}

const fixed = (value, digits) => value.toFixed(digits);

function renderDecision(decisionRuns, steady, pass) {
  const [saturated, steadyRun, single] = decisionRuns;
  const row = (run, load, target) =>
    `| ${load} | ${run.connections} | ${Math.round(run.requestsPerSecond)} | ${run.p50Ms} | ${run.p99Ms} | ` +
    `${fixed(run.littleMeanMs, 2)} | ${run.non2xx} | ${target} |`;
  const pairedRow = (run) =>
    `| ${run.identity} | ${Math.round(run.requestsPerSecond)} | ${run.p50Ms} | ${run.p90Ms} | ${run.p99Ms} | ${run.p999Ms} | ` +
    `${run.paced.serviceMicros.p99 / 1000} | ${run.paced.loaderLatenessMicros.p99 / 1000} |`;
  const stallRow = ([cpu, probe]) =>
    `| ${cpu} | ${probe.stallsOverHalfMs} | ${probe.stallsOver2Ms} | ${probe.stalledMsPerSecond} | ${probe.longestMs} |`;
  return [
    '### 1. Authorization decision: `POST /v1/decisions` (app key, `split-project:read`, own organization → allow)',
    '',
    '| offered load | connections | req/s | p50 ms | p99 ms | mean ms (connections ÷ req/s) | non-2xx | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    row(saturated, 'as fast as it goes (throughput)', 'informational'),
    row(
      steadyRun,
      `steady ${DECISION_OFFERED_RATE} req/s, Poisson arrivals (paced-load, µs timing)`,
      `p99 < ${DECISION_P99_TARGET_MS} ms ${pass ? 'PASS' : 'FAIL'}`,
    ),
    row(single, 'one at a time', 'informational'),
    '',
    `The steady load alternated every ${PAIRED.sliceSeconds} s between identity and a bare node:http server on the same CPU ` +
      `(bare-http-server.mjs: parses the body, answers a decision-sized JSON), ${PAIRED.seconds / 2} s each after a ` +
      `${LOAD.warmupSeconds} s warm-up:`,
    '',
    '| service | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | p99 from dispatch ms | loader lateness p99 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    pairedRow(steady.decision),
    pairedRow(steady.floor),
    '',
    `identity − bare: p50 ${fixed(steady.decision.p50Ms - steady.floor.p50Ms, 3)} ms, p99 ${fixed(steady.decision.p99Ms - steady.floor.p99Ms, 3)} ms.`,
    '',
    `CPU stall probe just before (cpu-stall-probe.mjs, ${STALL_PROBE_SECONDS} s on each CPU at once: a busy loop that wants the CPU all the time):`,
    '',
    '| CPU | stalls > 0.5 ms | stalls > 2 ms | stalled ms per s | longest ms |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...Object.entries(steady.stalls).map(stallRow),
    '',
  ].join('\n');
}

function renderLimiter(redisRun, memoryRun, comparison) {
  const row = (run) =>
    `| ${run.identity} | ${Math.round(run.requestsPerSecond)} | ${run.p50Ms} | ${run.p99Ms} | ${fixed(run.littleMeanMs, 2)} | ` +
    `${run.non2xx} | ${run.limiter.remaining} of ${run.limiter.limit} |`;
  return [
    '### 2. Rate limiter overhead: `GET /v1/apps/<registryId>` with the app key (key auth + limiter + app query), 50 connections',
    '',
    '| identity | req/s | p50 ms | p99 ms | mean ms (connections ÷ req/s) | non-2xx | bucket tokens left after |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    row(redisRun),
    row(memoryRun),
    '',
    `Redis / in-process req/s: **${fixed(comparison.ratio, 2)}**; p99 difference (Redis − in-process): ` +
      `**${comparison.p99DifferenceMs} ms** (whole-ms resolution); mean difference: ${fixed(comparison.meanDifferenceMs, 3)} ms.`,
    '',
  ].join('\n');
}

function renderTakes(takes) {
  const rows = takes.runs.map(
    (r) =>
      `| ${r.concurrency}${r.concurrency === LIMITER_CONCURRENCY ? '' : ' (informational)'} | ${r.takes} | ${r.takesPerSecond} | ` +
      `${r.p50Micros} | ${r.p99Micros} | ${r.meanMicros} | ${r.maxMicros} |`,
  );
  return [
    '### 3. Redis limiter alone: `take()` of one bucket, no HTTP',
    '',
    '| concurrency | takes | takes/s | p50 µs | p99 µs | mean µs | max µs |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    "The services' own RedisRateLimitStore (libs/server-kit/src/rate-limit) taking one bucket " +
      `(its TAKE_SCRIPT by ioredis defineCommand → EVALSHA, one connection). ${takes.warmupTakes} warm-up takes discarded per concurrency; latency per take includes ` +
      'waiting behind the other takes in flight on the connection.',
    '',
  ].join('\n');
}

function renderNotes(setupInfo, exits) {
  const notes = [
    '### Notes',
    '',
    `- Load: autocannon on CPU ${LOAD_CPU}, ${LOAD.warmupSeconds} s warm-up discarded, then ${LOAD.durationSeconds} s measured; ` +
      `identity pinned to CPU ${SERVER_CPU}; database: ${setupInfo.database}; LOG_LEVEL=warn.`,
    '- Latency resolution: autocannon records whole milliseconds, truncated (a p99 of N means the 99th percentile lies in ' +
      "[N, N+1) ms; 0 means under 1 ms). The p99 target is met when autocannon's latency.p99 ≤ 1. The mean column is " +
      "derived from throughput (Little's law for a closed loop: connections ÷ req/s), not from the truncated samples.",
    `- Rate limits: ${RATE_LIMIT} (burst and per minute), the highest IdentityConfig accepts (the brief's 100 000 000 is refused at start). ` +
      'The limiter ran on every apps-get request (X-RateLimit headers present; with Redis, buckets under a unique key prefix). ' +
      'The bucket refills at ~1 667 tokens/s, so below that rate it stays nearly full.',
    '- The decision endpoint has no rate limiter (service-token guard only); it was measured on the in-process identity, ' +
      'with its key leases at the default KEY_LEASE_MS (a key in use is read again once its lease is half gone: about eight database reads a second).',
  ];
  for (const exit of exits) {
    if (!exit.clean)
      notes.push(`- WARNING: identity (${exit.instance}) did not stop cleanly on SIGTERM (code ${exit.code}, signal ${exit.signal}).`);
  }
  return notes.join('\n');
}

function writeResults(results) {
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

async function main() {
  const startedAt = Date.now();
  const databaseUrl = EMBEDDED ? undefined : await createBenchDatabase(databaseName);
  const database = EMBEDDED ? 'embedded PGlite' : `PostgreSQL (throwaway database ${databaseName})`;
  log(`database: ${database}; DATA_DIR=${tempDir}; Redis key prefix ${redisKeyPrefix}`);
  onCleanup(deleteRedisKeys);

  const redisPart = await benchRedisInstance(databaseUrl);
  const memoryPart = await benchInProcessInstance(databaseUrl, redisPart.setup);

  log(`timing ${LIMITER_TAKES} Redis takes at concurrency ${LIMITER_CONCURRENCY}`);
  const takes = await runJsonScript('redis-take', REDIS_TAKE, [
    REDIS_URL,
    `${redisKeyPrefix}take-bench`,
    LIMITER_TAKES,
    `${LIMITER_CONCURRENCY},1`,
  ]);

  const redisRun = redisPart.run;
  const memoryRun = memoryPart.run;
  const comparison = {
    ratio: redisRun.requestsPerSecond / memoryRun.requestsPerSecond,
    p99DifferenceMs: redisRun.p99Ms - memoryRun.p99Ms,
    meanDifferenceMs: redisRun.littleMeanMs - memoryRun.littleMeanMs,
  };
  const decisionPass = memoryPart.decisionRuns[1].p99Ms < DECISION_P99_TARGET_MS;
  const exits = [redisPart.exit, memoryPart.exit];
  const seconds = Math.round((Date.now() - startedAt) / 1000);

  writeResults({
    date: new Date().toISOString(),
    node: process.version,
    cpus: { identity: SERVER_CPU, load: LOAD_CPU },
    load: LOAD,
    database,
    rateLimit: RATE_LIMIT,
    targets: { decisionP99Ms: { below: DECISION_P99_TARGET_MS, value: memoryPart.decisionRuns[1].p99Ms, pass: decisionPass } },
    decision: {
      check: memoryPart.decisionCheck,
      runs: memoryPart.decisionRuns,
      bareServer: memoryPart.steady.floor,
      cpuStalls: memoryPart.steady.stalls,
    },
    limiter: { redis: redisRun, inProcess: memoryRun, comparison },
    redisTakes: { script: 'one-bucket copy of TAKE_SCRIPT, ioredis EVALSHA', ...takes },
    exits,
    seconds,
  });
  console.log(
    [
      renderDecision(memoryPart.decisionRuns, memoryPart.steady, decisionPass),
      renderLimiter(redisRun, memoryRun, comparison),
      renderTakes(takes),
      renderNotes({ database }, exits),
      '',
      `Targets: decision p99 < ${DECISION_P99_TARGET_MS} ms at ${LOAD.connections} connections offering ${DECISION_OFFERED_RATE} req/s: ${decisionPass ? 'PASS' : 'FAIL'} ` +
        `(p99 ${memoryPart.decisionRuns[1].p99Ms} ms).`,
    ].join('\n'),
  );
  log(`done in ${seconds} s; raw results in ${path.relative(ROOT, RESULTS_FILE)}`);
}

run(main);
