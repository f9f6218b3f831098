// Protected read benchmark: requests/s and latency of standards-api's protected read
// GET /api/v2/split-projects/<id> with the identity hop (the built standards-api asking the built
// identity through libs/authz-client) against the very same read without it (the same standards-api
// code with the AuthorizationClient replaced by an immediate allow: unprotected-standards-api.ts,
// bundled here by tools/build/bundle.mjs into dist/bench/unprotected-standards-api/). Scenarios:
//  - unprotected: no identity hop (the guard runs, its ask() resolves at once);
//  - protected, AUTHZ_READ_CACHE_MS=1000 (the default): allows of reads are reused for up to 1 s;
//  - protected, AUTHZ_READ_CACHE_MS=0: every request asks identity (POST /v1/decisions).
// The ratio protected/unprotected req/s is the share of the read's throughput kept with the hop;
// target >= 0.8 on the default configuration, the cache-off ratio is reported for information.
// standards-api (all three instances) and identity are pinned to CPU 0, sharing the server core;
// autocannon (10 connections, 3 s discarded warm-up + 10 s) runs alone on CPU 1. Two rounds in
// alternating order, the better run of each scenario counts. The instances run side by side on their
// own ports, the load goes to one at a time. Databases: one throwaway database for identity and one
// shared by the standards-api instances on this machine's PostgreSQL (dropped at the end;
// PG_ADMIN_URL overrides postgres://postgres@127.0.0.1:5432/postgres); PostgreSQL itself is not pinned.
// With BENCH_BASELINE_DIST=<a dist folder of an earlier build> a fourth variant runs that build's
// standards-api (against the same identity, cache on) in the same rounds: before and after in one run,
// also compared directly (this build's cached read ÷ the earlier build's, round by round, and their median).
// BENCH_ROUNDS=<n> runs n rounds instead of 3 (more pairs when the machine is noisy).
// Then revoke-to-refusal: a second instance beside each cached variant's (two replicas of one build),
// REVOCATIONS times a fresh app key read on both (so each holds an allow), revoked through identity, and
// from the moment the revoke has answered each replica read back to back until it refuses (401): the
// time from the answer to that refusal, and how many reads were still served.
// Run from the repository root: `npm run bench:protected` (builds standards-api and identity first).
// Prints a Markdown table; raw results go to tools/bench/results/protected-read.json. Exits non-zero
// only if the run itself failed.
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundle } from '../build/bundle.mjs';
// The valid scenario content every app's tests use (plain data, no imports; Node strips the types).
import { sampleScenario } from '../../libs/server-kit/src/testing/sample-scenario.ts';
import {
  LOAD_CPU,
  ROOT,
  SERVER_CPU,
  assertOnlyStatus,
  autocannon,
  createBenchDatabase,
  freePort,
  get,
  log,
  makeTempDir,
  pgQuery,
  request,
  run,
  startServer,
  waitForStatus,
} from './bench-kit.mjs';

const IDENTITY_MAIN = path.join(ROOT, 'dist/apps/identity/main.js');
const STANDARDS_API_MAIN = path.join(ROOT, 'dist/apps/standards-api/main.js');
// The content pack the standards-api artifact imports on first start (its default); the unprotected
// bundle is not next to it, so both variants are told where it is.
const CONTENT_PACK_DIR = path.join(ROOT, 'dist/apps/standards-api/content-pack');
const UNPROTECTED_ENTRY = path.join(import.meta.dirname, 'unprotected-standards-api.ts');
const UNPROTECTED_OUT_DIR = path.join(ROOT, 'dist/bench/unprotected-standards-api');
const UNPROTECTED_MAIN = path.join(UNPROTECTED_OUT_DIR, 'main.js');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/protected-read.json');

const LOAD = { connections: 10, pipelining: 1, warmupSeconds: 3, durationSeconds: 10 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REVOCATIONS = 20;
/** A replica still serving a revoked key this long after the answer fails the run. */
const REVOCATION_GIVE_UP_MS = 5000;
const TARGET = 0.8;
const DEFAULT_READ_CACHE_MS = 1000;
// After a load, how long to wait before reading PostgreSQL's per-database counters: a backend
// publishes its counters at most once a second, and what it holds back then is published when it
// has been idle for 10 s (PGSTAT_IDLE_INTERVAL); read earlier, the last second of load is missing.
const STATS_SETTLE_MS = 11_000;
// The highest limits IdentityConfig accepts, as in identity.bench.mjs (the decision endpoint itself
// has no rate limiter; these keep the set-up calls clear of it).
const RATE_LIMIT = 100_000;

const VARIANTS = [
  { name: 'unprotected', label: 'unprotected (identity hop removed)', protected: false },
  {
    name: 'protected-cache',
    label: `protected, read-allow cache ${DEFAULT_READ_CACHE_MS} ms (default)`,
    protected: true,
    readCacheMs: DEFAULT_READ_CACHE_MS,
    target: TARGET,
  },
  { name: 'protected-no-cache', label: 'protected, cache off (every request asks identity)', protected: true, readCacheMs: 0 },
];
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
if (BASELINE_DIST) {
  VARIANTS.push({
    name: 'baseline-cache',
    label: `protected, read-allow cache ${DEFAULT_READ_CACHE_MS} ms, standards-api of BENCH_BASELINE_DIST`,
    protected: true,
    readCacheMs: DEFAULT_READ_CACHE_MS,
    main: path.resolve(BASELINE_DIST, 'apps/standards-api/main.js'),
  });
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const serviceToken = Array.from({ length: 40 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
const suffix = randomBytes(6).toString('hex');
const databases = { identity: `identity_bench_${suffix}`, standardsApi: `standards_bench_${suffix}` };
const tempDir = makeTempDir('protected-read-bench-');
// A well-formed app key identity never issued: refused by identity, allowed by the unprotected variant.
const FORGED_APP_KEY = `stdreg_app_aaaaaaaaaa_${'A'.repeat(43)}`;

/**
 * Hops so far: decisions identity answered (its /metrics, authorization_decisions_total side="decided";
 * a decision no longer reads identity's database, see its key leases) and standards-api's committed
 * transactions (pg_stat_database).
 */
async function hopCounts(identityPort) {
  const metrics = (await get(identityPort, '/metrics')).body.toString('utf8');
  let decisions = 0;
  for (const line of metrics.split('\n')) {
    const sample = /^authorization_decisions_total\{([^}]*)\} (\S+)$/.exec(line);
    if (sample && sample[1].includes('side="decided"')) decisions += Number(sample[2]);
  }
  const rows = await pgQuery('SELECT xact_commit::bigint AS commits FROM pg_stat_database WHERE datname = $1', [databases.standardsApi]);
  return { identity: decisions, standardsApi: Number(rows[0]?.commits ?? 0) };
}

function assertArtifacts() {
  for (const file of [IDENTITY_MAIN, STANDARDS_API_MAIN, path.join(CONTENT_PACK_DIR, 'pack.json')]) {
    if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run bench:protected\`, which builds first`);
  }
  if (readFileSync(STANDARDS_API_MAIN, 'utf8').includes('@nestjs/testing')) {
    throw new Error('dist/apps/standards-api/main.js imports @nestjs/testing: the bench-only entry point leaked into the artifact');
  }
}

async function bundleUnprotected() {
  rmSync(UNPROTECTED_OUT_DIR, { recursive: true, force: true });
  await bundle({ entryPoints: { main: UNPROTECTED_ENTRY }, outdir: UNPROTECTED_OUT_DIR });
  log(`bundled ${path.relative(ROOT, UNPROTECTED_ENTRY)} into ${path.relative(ROOT, UNPROTECTED_OUT_DIR)}`);
}

function identityEnv(port, databaseUrl, dataDir) {
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    IDENTITY_PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
    RATE_LIMIT_APP_BURST: String(RATE_LIMIT),
    RATE_LIMIT_APP_PER_MINUTE: String(RATE_LIMIT),
    RATE_LIMIT_APP_WRITES_PER_MINUTE: String(RATE_LIMIT),
    RATE_LIMIT_PLATFORM_BURST: String(RATE_LIMIT),
    RATE_LIMIT_PLATFORM_PER_MINUTE: String(RATE_LIMIT),
  };
  for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  return env;
}

async function startIdentity(databaseUrl) {
  const port = await freePort();
  const dataDir = path.join(tempDir, 'identity');
  mkdirSync(dataDir);
  log(`starting identity on port ${port}`);
  startServer('identity', [IDENTITY_MAIN], identityEnv(port, databaseUrl, dataDir));
  await waitForStatus('identity', port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}`, platformKey: readFileSync(path.join(dataDir, 'bootstrap-platform-key'), 'utf8').trim() };
}

const STANDARDS_API_VARIABLES = [
  'DATABASE_URL',
  'CONTENT_AUTO_IMPORT',
  'CONTENT_PACK_DIR',
  'CONTENT_REFRESH_SECONDS',
  'IDENTITY_URL',
  'IDENTITY_SERVICE_TOKEN',
  'AUTHZ_TIMEOUT_MS',
  'AUTHZ_READ_CACHE_MS',
];

/** One standards-api instance of a variant; the protected ones are the built artifact, the unprotected one the bench bundle. */
async function startStandardsApi(variant, databaseUrl, identity) {
  const port = await freePort();
  const dataDir = path.join(tempDir, variant.name);
  mkdirSync(dataDir);
  const env = { ...process.env };
  for (const name of STANDARDS_API_VARIABLES) delete env[name];
  Object.assign(env, {
    HOST: '127.0.0.1',
    STANDARDS_API_PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    CONTENT_PACK_DIR,
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
    AUTHZ_READ_CACHE_MS: String(variant.readCacheMs ?? DEFAULT_READ_CACHE_MS),
  });
  log(`starting standards-api ${variant.name} on port ${port}`);
  startServer(`standards-api ${variant.name}`, [variant.main ?? (variant.protected ? STANDARDS_API_MAIN : UNPROTECTED_MAIN)], env);
  await waitForStatus(`standards-api ${variant.name}`, port, '/readyz', 200);
  return port;
}

/** One JSON API call; fails the run unless the status is the expected one. */
async function api(port, method, urlPath, headers, body, expectedStatus) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const allHeaders = { ...headers };
  if (payload !== undefined)
    Object.assign(allHeaders, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  const response = await request(port, { method, path: urlPath, headers: allHeaders, body: payload });
  const text = response.body.toString('utf8');
  if (response.status !== expectedStatus) {
    throw new Error(`${method} ${urlPath} answered ${response.status} instead of ${expectedStatus}: ${text.slice(0, 500)}`);
  }
  return text ? JSON.parse(text) : null;
}

/** Organization and app key through identity's API with the bootstrap platform key (as identity.bench.mjs). */
async function setUpIdentity(identity) {
  const asPlatform = { Authorization: `Bearer ${identity.platformKey}` };
  const organization = await api(identity.port, 'POST', '/v1/organizations', asPlatform, { name: 'Bench Org' }, 201);
  const key = await api(
    identity.port,
    'POST',
    '/v1/keys',
    asPlatform,
    { name: 'bench', class: 'app', organizationId: organization.id },
    201,
  );
  return { organizationId: organization.id, appKey: key.secret };
}

/** The split project the load reads, created through the protected standards-api. */
async function createProject(port, headers) {
  const body = {
    name: 'Bench project',
    currency: 'EUR',
    templateVersion: '2.0',
    scenario: { name: 'Baseline', content: sampleScenario() },
  };
  const created = await api(port, 'POST', '/api/v2/split-projects', headers, body, 201);
  return created.project.id;
}

/**
 * Guards the comparison: every instance answers the read with the same 200 body; a key identity
 * never issued is refused by the protected instances (they ask identity) and let through by the
 * unprotected one (it does not).
 */
async function checkInstances(ports, readPath, headers) {
  const bodies = {};
  for (const variant of VARIANTS) {
    const response = await get(ports[variant.name], readPath, headers);
    if (response.status !== 200)
      throw new Error(`${variant.name} answered ${response.status} on ${readPath}: ${response.body.toString().slice(0, 500)}`);
    bodies[variant.name] = response.body.toString('utf8');
  }
  if (new Set(Object.values(bodies)).size !== 1) throw new Error(`the instances answer ${readPath} differently: ${JSON.stringify(bodies)}`);
  const forged = { ...headers, Authorization: `Bearer ${FORGED_APP_KEY}` };
  for (const variant of VARIANTS) {
    const expected = variant.protected ? 401 : 200;
    const { status } = await get(ports[variant.name], readPath, forged);
    if (status !== expected) throw new Error(`${variant.name} answered ${status} instead of ${expected} to a key identity never issued`);
  }
  return { bodyBytes: Buffer.byteLength(bodies.unprotected), body: JSON.parse(bodies.unprotected) };
}

function load(port, readPath, headers, seconds) {
  return autocannon({
    url: `http://127.0.0.1:${port}${readPath}`,
    connections: LOAD.connections,
    pipelining: LOAD.pipelining,
    seconds,
    headers: Object.entries(headers).map(([name, value]) => `${name}=${value}`),
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Warm-up, then the measured load; the database counters around both say how often identity was
 * asked (one key lookup, one transaction, per decision) and how much database work a read does.
 */
async function measure(round, variant, port, readPath, headers, identityPort) {
  const label = `${variant.name} (round ${round})`;
  const before = await hopCounts(identityPort);
  const warmup = await load(port, readPath, headers, LOAD.warmupSeconds);
  assertOnlyStatus(warmup, 200, `${label} warm-up`);
  const result = await load(port, readPath, headers, LOAD.durationSeconds);
  assertOnlyStatus(result, 200, label);
  await sleep(STATS_SETTLE_MS);
  const after = await hopCounts(identityPort);
  const requests = warmup.requests.total + result.requests.total;
  const run = {
    round,
    scenario: variant.name,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    identityDecisionsPerRequest: (after.identity - before.identity) / requests,
    standardsApiTransactionsPerRequest: (after.standardsApi - before.standardsApi) / requests,
    autocannon: result,
  };
  log(
    `round ${round} ${variant.name}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
      `identity decisions/request ${run.identityDecisionsPerRequest.toFixed(3)}`,
  );
  return run;
}

/** What the scenarios claim, checked on their counters: the cache-off instance asked identity for every request, the unprotected one never. */
function assertHops(run) {
  if (run.scenario === 'protected-no-cache' && run.identityDecisionsPerRequest < 0.95) {
    throw new Error(
      `protected-no-cache: identity answered ${run.identityDecisionsPerRequest.toFixed(3)} decisions per request, expected one per request`,
    );
  }
  if (run.scenario === 'unprotected' && run.identityDecisionsPerRequest > 0.01) {
    throw new Error(`unprotected: identity answered ${run.identityDecisionsPerRequest.toFixed(3)} decisions per request, expected none`);
  }
}

async function runRounds(ports, readPath, headers, identityPort) {
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const result = await measure(round, variant, ports[variant.name], readPath, headers, identityPort);
      assertHops(result);
      runs.push(result);
    }
  }
  return runs;
}

/**
 * Each variant against the unprotected run of the same round (adjacent in time, so they met the same
 * machine); the round with the median ratio stands for the variant.
 */
function summarize(runs) {
  const inRound = (scenario, round) => runs.find((run) => run.scenario === scenario && run.round === round);
  return VARIANTS.map((variant) => {
    const paired = runs
      .filter((run) => run.scenario === variant.name)
      .map((run) => ({ run, ratio: run.requestsPerSecond / inRound('unprotected', run.round).requestsPerSecond }))
      .sort((a, b) => a.ratio - b.ratio);
    const { run, ratio } = paired[Math.floor(paired.length / 2)];
    return {
      scenario: variant.name,
      label: variant.label,
      round: run.round,
      requestsPerSecond: run.requestsPerSecond,
      p50Ms: run.p50Ms,
      p99Ms: run.p99Ms,
      identityDecisionsPerRequest: run.identityDecisionsPerRequest,
      standardsApiTransactionsPerRequest: run.standardsApiTransactionsPerRequest,
      ratio,
      roundRatios: paired.map((entry) => ({ round: entry.run.round, ratio: entry.ratio })).sort((a, b) => a.round - b.round),
      target: variant.target ?? null,
      pass: variant.target === undefined ? null : ratio >= variant.target,
    };
  });
}

function renderTable(rows, seconds) {
  const target = (row) => {
    if (row.scenario === 'unprotected') return 'baseline';
    return row.target === null ? 'informational' : `>= ${row.target.toFixed(2)} ${row.pass ? 'PASS' : 'FAIL'}`;
  };
  const lines = [
    '| scenario | round | req/s | p50 ms | p99 ms | identity decisions / request | ratio (÷ unprotected, same round) | ratio per round | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.round} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ` +
        `${row.identityDecisionsPerRequest.toFixed(3)} | ${row.ratio.toFixed(2)} | ` +
        `${row.roundRatios.map((entry) => entry.ratio.toFixed(2)).join(', ')} | ${target(row)} |`,
    ),
    '',
    `Read: GET /api/v2/split-projects/<id> with an app key and X-Organization-Id; ${LOAD.connections} connections, ` +
      `${LOAD.warmupSeconds} s warm-up discarded, ${LOAD.durationSeconds} s measured; ${ROUNDS} rounds in alternating order, ` +
      'each variant compared with the unprotected run of its own round; the round with the median ratio is shown.',
    `CPUs: standards-api and identity share CPU ${SERVER_CPU}; autocannon alone on CPU ${LOAD_CPU}; PostgreSQL not pinned.`,
    'Ratio = protected ÷ unprotected req/s; the target (>= 0.80) is judged on the default configuration (read-allow cache on).',
    'Identity decisions / request: decisions identity answered during warm-up and measurement (its /metrics) ÷ requests.',
    'Latency: autocannon whole milliseconds, truncated (0 = under 1 ms).',
    ...baselineComparison(rows),
    `Run time: ${seconds} s.`,
  ];
  return lines.join('\n');
}

/** This build's cached read ÷ BENCH_BASELINE_DIST's, each round's pair adjacent in time; the median of the pairs. */
function baselineComparison(rows) {
  const perRound = (scenario) => rows.find((row) => row.scenario === scenario)?.roundRatios ?? [];
  const baseline = perRound('baseline-cache');
  if (baseline.length === 0) return [];
  const current = perRound('protected-cache');
  const ratios = baseline.map((entry, i) => current[i].ratio / entry.ratio);
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return [
    `This build ÷ BENCH_BASELINE_DIST (cache on, each round's two ratios to the same unprotected run): ` +
      `${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${median.toFixed(2)}.`,
  ];
}

/** Reads on `port` back to back until one is refused: when (ms after `from`) and how many were served first. */
async function untilRefused(port, urlPath, headers, from) {
  for (let served = 0; ; served++) {
    const { status } = await request(port, { method: 'GET', path: urlPath, headers });
    const ms = performance.now() - from;
    if (status === 401) return { ms, served };
    if (status !== 200) throw new Error(`a read of a key being revoked answered ${status}`);
    if (ms > REVOCATION_GIVE_UP_MS) throw new Error(`a replica still served a key ${REVOCATION_GIVE_UP_MS} ms after its revoke answered`);
  }
}

/** Each cached variant's two replicas, in alternating order: the revoke-to-refusal figures. */
async function measureRevocations(identity, organizationId, replicasOf) {
  const asPlatform = { Authorization: `Bearer ${identity.platformKey}` };
  const runs = [];
  for (let round = 1; round <= REVOCATIONS; round++) {
    const names = Object.keys(replicasOf);
    for (const name of round % 2 === 1 ? names : names.reverse()) {
      const body = { name: `revocation ${round}`, class: 'app', organizationId };
      const issued = await api(identity.port, 'POST', '/v1/keys', asPlatform, body, 201);
      const headers = { Authorization: `Bearer ${issued.secret}`, 'X-Organization-Id': organizationId };
      for (const port of replicasOf[name])
        for (let read = 0; read < 2; read++) await api(port, 'GET', '/api/v2/split-projects', headers, undefined, 200);
      await api(identity.port, 'POST', `/v1/keys/${issued.key.id}/revoke`, asPlatform, undefined, 200);
      const answeredAt = performance.now();
      const refusals = await Promise.all(replicasOf[name].map((port) => untilRefused(port, '/api/v2/split-projects', headers, answeredAt)));
      runs.push({ round, scenario: name, refusals });
    }
  }
  const nearestRank = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];
  const rows = Object.keys(replicasOf).map((name) => {
    const refusals = runs.filter((run) => run.scenario === name).flatMap((run) => run.refusals);
    const ms = refusals.map((refusal) => refusal.ms);
    const served = refusals.map((refusal) => refusal.served);
    return {
      scenario: name,
      reads: refusals.length,
      p50Ms: nearestRank(ms, 0.5),
      p90Ms: nearestRank(ms, 0.9),
      maxMs: Math.max(...ms),
      servedP50: nearestRank(served, 0.5),
      servedMax: Math.max(...served),
      servedTotal: served.reduce((sum, n) => sum + n, 0),
    };
  });
  return { rows, runs };
}

function renderRevocations(rows) {
  return [
    '| scenario (two replicas) | revokes × replicas | first refusal after the answer: p50 / p90 / max ms | reads still served: p50 / max (total) |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${VARIANTS.find((variant) => variant.name === row.scenario).label} | ${row.reads} | ` +
        `${row.p50Ms.toFixed(1)} / ${row.p90Ms.toFixed(1)} / ${row.maxMs.toFixed(1)} | ${row.servedP50} / ${row.servedMax} (${row.servedTotal}) |`,
    ),
    '',
    `Revocations: ${REVOCATIONS} per scenario, each key read twice on both replicas first, then revoked; time from the revoke's answer to each replica's first 401, reading back to back.`,
  ].join('\n');
}

function writeResults(results) {
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

async function main() {
  const startedAt = Date.now();
  assertArtifacts();
  await bundleUnprotected();
  const identityDatabaseUrl = await createBenchDatabase(databases.identity);
  const standardsApiDatabaseUrl = await createBenchDatabase(databases.standardsApi);
  log(`databases: ${databases.identity}, ${databases.standardsApi} (PostgreSQL); DATA_DIR under ${tempDir}`);

  const identity = await startIdentity(identityDatabaseUrl);
  const setup = await setUpIdentity(identity);
  log(`set up: organization ${setup.organizationId}`);

  // One after the other: the first runs the migrations and imports the content pack.
  const ports = {};
  for (const variant of [VARIANTS[1], VARIANTS[2], VARIANTS[0], ...VARIANTS.slice(3)]) {
    ports[variant.name] = await startStandardsApi(variant, standardsApiDatabaseUrl, identity);
  }
  const headers = { Authorization: `Bearer ${setup.appKey}`, 'X-Organization-Id': setup.organizationId };
  const projectId = await createProject(ports['protected-cache'], headers);
  const readPath = `/api/v2/split-projects/${projectId}`;
  const check = await checkInstances(ports, readPath, headers);
  log(
    `project ${projectId}: every instance answers the same ${check.bodyBytes}-byte body; a forged key is refused only by the protected ones`,
  );

  const runs = await runRounds(ports, readPath, headers, identity.port);
  const rows = summarize(runs);
  const replicasOf = {};
  for (const variant of VARIANTS.filter((candidate) => candidate.readCacheMs === DEFAULT_READ_CACHE_MS)) {
    const second = await startStandardsApi({ ...variant, name: `${variant.name}-2` }, standardsApiDatabaseUrl, identity);
    replicasOf[variant.name] = [ports[variant.name], second];
  }
  const revocations = await measureRevocations(identity, setup.organizationId, replicasOf);
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  writeResults({
    date: new Date().toISOString(),
    node: process.version,
    cpus: { standardsApi: SERVER_CPU, identity: SERVER_CPU, load: LOAD_CPU, postgres: 'not pinned' },
    load: LOAD,
    rounds: ROUNDS,
    target: { ratio: TARGET, scenario: 'protected-cache', pass: rows.find((row) => row.scenario === 'protected-cache').pass },
    databases,
    read: {
      path: '/api/v2/split-projects/<id>',
      organizationId: setup.organizationId,
      projectId,
      bodyBytes: check.bodyBytes,
      body: check.body,
    },
    rows,
    runs,
    revocations,
    seconds,
  });
  console.log(renderTable(rows, seconds));
  console.log(`\n${renderRevocations(revocations.rows)}`);
  log(`done in ${seconds} s; raw results in ${path.relative(ROOT, RESULTS_FILE)}`);
}

run(main);
