// Registry read benchmark: requests/s and p99 latency of the built standards-api on its hottest anonymous
// reads (GET /api/v2/standards and /api/v2/standards/RUL-3, plain and conditional) compared with a bare
// node:http server (bare-server.mjs) replaying the very same response bytes and headers. The ratio
// Nest/bare is the share of raw node:http throughput the framework stack keeps.
// Both servers are pinned to CPU 0, the autocannon load (10 connections, 3 s discarded warm-up + 10 s)
// to CPU 1; every scenario is measured twice per server (`BENCH_ROUNDS=<n>` for more), in alternating order, and the better run counts.
// Run from the repository root: `npm run bench` (builds standards-api first). Prints a Markdown table;
// raw results go to tools/bench/results/registry-read.json. Exits non-zero only if the run itself failed.
// `BENCH_BASELINE_MAIN=<another build's main.js>` adds that build as a third lane of the same rounds (checked
// to answer the same bytes and headers first) and prints this build's throughput over it: how a change moves
// the figures, measured in one run (build the other commit and copy dist/apps/standards-api aside first).
// Beside throughput it reports each server's CPU time per request over the measured window (user + system, from
// /proc/<pid>/stat): what a request costs the server, which the machine's load moves far less than req/s.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  LOAD_CPU,
  ROOT,
  SERVER_CPU,
  assertOnlyStatus,
  autocannon as runAutocannon,
  freePort,
  get,
  log,
  makeTempDir,
  run,
  startServer,
  waitForStatus,
} from './bench-kit.mjs';

const NEST_MAIN = path.join(ROOT, 'dist/apps/standards-api/main.js');
const BARE_SERVER = path.join(import.meta.dirname, 'bare-server.mjs');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/registry-read.json');

const LOAD = { connections: 10, pipelining: 1, warmupSeconds: 3, durationSeconds: 10 };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_ROUNDS must be a whole number of rounds, at least 1');

const LIST = '/api/v2/standards';
const ITEM = '/api/v2/standards/RUL-3';
const REPLAYED_HEADERS = new Set(['etag', 'content-type', 'cache-control', 'vary', 'content-length']);
const SCENARIOS = [
  { name: 'list-200', path: LIST, conditional: false, status: 200, target: 0.25 },
  { name: 'item-200', path: ITEM, conditional: false, status: 200, target: 0.25 },
  { name: 'item-304', path: ITEM, conditional: true, status: 304, target: 0.3 },
  { name: 'list-304', path: LIST, conditional: true, status: 304, target: 0.3 },
];

const BASELINE_MAIN = process.env.BENCH_BASELINE_MAIN ? path.resolve(process.env.BENCH_BASELINE_MAIN) : null;

const tempDir = makeTempDir('registry-read-bench-');
const fixtureFile = path.join(tempDir, 'fixture.json');

/** A server's port and the pid whose CPU time is counted (taskset execs node in place). */
async function startNest(main = NEST_MAIN, name = 'standards-api', dataDir = tempDir) {
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', STANDARDS_API_PORT: String(port), HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  const child = startServer(name, [main], env);
  await waitForStatus(name, port, '/readyz', 200);
  return { port, pid: child.pid };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms; null where /proc cannot tell. */
function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The baseline build must answer what this build answers, byte for byte, headers included. */
async function assertSameAnswers(baselinePort, fixture) {
  for (const [urlPath, route] of Object.entries(fixture)) {
    const baseline = await captureRoute(baselinePort, urlPath);
    if (JSON.stringify(baseline) !== JSON.stringify(route)) throw new Error(`the baseline build answers ${urlPath} differently`);
  }
}

async function startBare() {
  const port = await freePort();
  const child = startServer('bare server', [BARE_SERVER, fixtureFile, String(port)], process.env);
  await waitForStatus('bare server', port, LIST, 200);
  return { port, pid: child.pid };
}

function replayedHeaders(rawHeaders) {
  const pairs = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (REPLAYED_HEADERS.has(rawHeaders[i].toLowerCase())) pairs.push([rawHeaders[i], rawHeaders[i + 1]]);
  }
  return pairs;
}

async function expectStatus(port, urlPath, headers, status) {
  const response = await get(port, urlPath, headers);
  if (response.status !== status) throw new Error(`standards-api answered ${response.status} instead of ${status} on ${urlPath}`);
  return response;
}

/** The 200 and 304 responses standards-api gives for a path, in the bare server's fixture format. */
async function captureRoute(port, urlPath) {
  const ok = await expectStatus(port, urlPath, {}, 200);
  const etag = ok.rawHeaders[ok.rawHeaders.findIndex((name) => name.toLowerCase() === 'etag') + 1];
  if (!etag) throw new Error(`standards-api sent no ETag on ${urlPath}`);
  const notModified = await expectStatus(port, urlPath, { 'If-None-Match': etag }, 304);
  return {
    etag,
    ok: { headers: replayedHeaders(ok.rawHeaders), body: ok.body.toString('base64') },
    notModified: { headers: replayedHeaders(notModified.rawHeaders) },
  };
}

async function writeFixture(nestPort) {
  const fixture = { [LIST]: await captureRoute(nestPort, LIST), [ITEM]: await captureRoute(nestPort, ITEM) };
  writeFileSync(fixtureFile, JSON.stringify(fixture));
  return fixture;
}

/** Guards the comparison: the bare server must send exactly what standards-api sent. */
async function assertBareReplays(barePort, fixture) {
  for (const [urlPath, route] of Object.entries(fixture)) {
    const cases = [
      { status: 200, headers: {}, expected: route.ok },
      { status: 304, headers: { 'If-None-Match': route.etag }, expected: route.notModified },
    ];
    for (const { status, headers, expected } of cases) {
      const response = await get(barePort, urlPath, headers);
      const same =
        response.status === status &&
        JSON.stringify(replayedHeaders(response.rawHeaders)) === JSON.stringify(expected.headers) &&
        response.body.toString('base64') === (expected.body ?? '');
      if (!same) throw new Error(`bare server does not replay the ${status} standards-api sends on ${urlPath}`);
    }
  }
}

/** Runs autocannon (on the load CPU) and returns its JSON result. */
function autocannon(port, scenario, etag, seconds) {
  return runAutocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: LOAD.connections,
    pipelining: LOAD.pipelining,
    seconds,
    headers: scenario.conditional ? [`If-None-Match=${etag}`] : [],
  });
}

async function measure(server, { port, pid }, scenario, etag) {
  const label = `${scenario.name} on ${server}`;
  assertOnlyStatus(await autocannon(port, scenario, etag, LOAD.warmupSeconds), scenario.status, `${label} (warm-up)`);
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon(port, scenario, etag, LOAD.durationSeconds);
  const cpuAfter = cpuMsOf(pid);
  assertOnlyStatus(result, scenario.status, label);
  const cpuMsPerThousand = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return {
    server,
    scenario: scenario.name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    cpuMsPerThousand,
    autocannon: result,
  };
}

async function runRounds(ports, fixture) {
  const runs = [];
  const servers = Object.keys(ports);
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? servers : [...servers].reverse();
    for (const scenario of SCENARIOS) {
      for (const server of order) {
        const run = { round, ...(await measure(server, ports[server], scenario, fixture[scenario.path].etag)) };
        const cpu = run.cpuMsPerThousand === null ? '' : `, ${run.cpuMsPerThousand.toFixed(1)} CPU ms per 1 000`;
        log(`round ${round} ${scenario.name} ${server}: ${Math.round(run.requestsPerSecond)} req/s, p99 ${run.p99Ms} ms${cpu}`);
        runs.push(run);
      }
    }
  }
  return runs;
}

function bestRun(runs, server, scenario) {
  return runs
    .filter((run) => run.server === server && run.scenario === scenario.name)
    .reduce((best, run) => (run.requestsPerSecond > best.requestsPerSecond ? run : best));
}

function summarize(runs) {
  return SCENARIOS.map((scenario) => {
    const nest = bestRun(runs, 'nest', scenario);
    const bare = bestRun(runs, 'bare', scenario);
    const ratio = nest.requestsPerSecond / bare.requestsPerSecond;
    return {
      scenario: scenario.name,
      nestRequestsPerSecond: nest.requestsPerSecond,
      bareRequestsPerSecond: bare.requestsPerSecond,
      ratio,
      nestP99Ms: nest.p99Ms,
      bareP99Ms: bare.p99Ms,
      target: scenario.target,
      pass: ratio >= scenario.target,
    };
  });
}

/** A server's CPU time per 1 000 requests for a scenario, one figure per round (null where /proc could not tell). */
function cpuOfRounds(runs, server, scenario) {
  return runs.filter((run) => run.server === server && run.scenario === scenario.name).map((run) => run.cpuMsPerThousand);
}

/** The least CPU time per request a server needed for a scenario over the rounds (null without /proc). */
function leastCpu(runs, server, scenario) {
  const measured = cpuOfRounds(runs, server, scenario);
  return measured.includes(null) ? null : Math.min(...measured);
}

/** The middle of a server's CPU time per request for a scenario over the rounds (null without /proc). */
function medianCpu(runs, server, scenario) {
  const measured = cpuOfRounds(runs, server, scenario);
  if (measured.includes(null)) return null;
  const sorted = measured.sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** This build over the baseline build (the same rounds): best throughput, least and median CPU time per request. */
function againstBaseline(runs) {
  return SCENARIOS.map((scenario) => {
    const nest = bestRun(runs, 'nest', scenario);
    const baseline = bestRun(runs, 'baseline', scenario);
    const nestCpu = leastCpu(runs, 'nest', scenario);
    const baselineCpu = leastCpu(runs, 'baseline', scenario);
    const nestMedianCpu = medianCpu(runs, 'nest', scenario);
    const baselineMedianCpu = medianCpu(runs, 'baseline', scenario);
    return {
      medianCpuRatio: nestMedianCpu === null || baselineMedianCpu === null ? null : nestMedianCpu / baselineMedianCpu,
      scenario: scenario.name,
      nestRequestsPerSecond: nest.requestsPerSecond,
      baselineRequestsPerSecond: baseline.requestsPerSecond,
      ratio: nest.requestsPerSecond / baseline.requestsPerSecond,
      nestCpuMsPerThousand: nestCpu,
      baselineCpuMsPerThousand: baselineCpu,
      cpuRatio: nestCpu === null || baselineCpu === null ? null : nestCpu / baselineCpu,
    };
  });
}

function renderBaselineTable(rows) {
  return [
    `| scenario | this build req/s | baseline req/s | this ÷ baseline | this build CPU ms / 1 000 | baseline CPU ms / 1 000 | CPU this ÷ baseline | median CPU this ÷ baseline (${ROUNDS} rounds) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${Math.round(row.nestRequestsPerSecond)} | ${Math.round(row.baselineRequestsPerSecond)} | ${row.ratio.toFixed(2)} | ` +
        `${row.nestCpuMsPerThousand?.toFixed(1) ?? '-'} | ${row.baselineCpuMsPerThousand?.toFixed(1) ?? '-'} | ${row.cpuRatio?.toFixed(2) ?? '-'} | ${row.medianCpuRatio?.toFixed(2) ?? '-'} |`,
    ),
    '',
    `Baseline: ${BASELINE_MAIN}`,
  ].join('\n');
}

function renderTable(rows) {
  const lines = [
    '| scenario | Nest req/s | bare req/s | ratio | Nest p99 ms | bare p99 ms | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${Math.round(row.nestRequestsPerSecond)} | ${Math.round(row.bareRequestsPerSecond)} | ${row.ratio.toFixed(2)} | ` +
        `${row.nestP99Ms} | ${row.bareP99Ms} | >= ${row.target.toFixed(2)} ${row.pass ? 'PASS' : 'FAIL'} |`,
    ),
    '',
    `Targets (ratio = Nest/bare req/s, best of ${ROUNDS} rounds): list-200 and item-200 >= 0.25, item-304 and list-304 >= 0.30.`,
  ];
  return lines.join('\n');
}

function writeResults(fixture, rows, runs, baselineRows) {
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const responses = Object.fromEntries(
    Object.entries(fixture).map(([urlPath, route]) => [urlPath, { etag: route.etag, headers: route.ok.headers }]),
  );
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: { servers: SERVER_CPU, load: LOAD_CPU },
    load: LOAD,
    responses,
    rows,
    ...(baselineRows ? { baseline: BASELINE_MAIN, baselineRows } : {}),
    runs,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

async function main() {
  const startedAt = Date.now();
  log(`starting standards-api (DATA_DIR=${tempDir})`);
  const nest = await startNest();
  const fixture = await writeFixture(nest.port);
  const bare = await startBare();
  await assertBareReplays(bare.port, fixture);
  const ports = { nest, bare };
  if (BASELINE_MAIN) {
    log(`starting the baseline standards-api (${BASELINE_MAIN})`);
    ports.baseline = await startNest(BASELINE_MAIN, 'baseline standards-api', makeTempDir('registry-read-baseline-'));
    await assertSameAnswers(ports.baseline.port, fixture);
  }
  const runs = await runRounds(ports, fixture);
  const rows = summarize(runs);
  const baselineRows = BASELINE_MAIN ? againstBaseline(runs) : null;
  writeResults(fixture, rows, runs, baselineRows);
  console.log(renderTable(rows));
  if (baselineRows) console.log(`\n${renderBaselineTable(baselineRows)}`);
  log(`done in ${Math.round((Date.now() - startedAt) / 1000)} s; raw results in ${path.relative(ROOT, RESULTS_FILE)}`);
}

run(main);
