// Tool-gateway benchmark: calls per second and latency of MCP `tools/call` through the built gateway
// (POST /mcp, a fresh stateless server per request, identity asked `tool:call` for every call of a
// drafting tool; a read-only tool's allow may be reused for AUTHZ_READ_CACHE_MS, default 1 s).
// Comparisons (each ratio is of lanes measured in the same rounds of the same run):
//  - gateway against a bare server on the MCP SDK (bare-mcp-server.mjs: the SDK's stateless example as
//    documented, the gateway's tools and input schemas, answers captured from the gateway replayed, no
//    authorization, no rate limit), and against the same bare server tuned as the gateway is (one shared
//    JSON-schema validator, a finished answer not closed), for
//    calculate_draft_settlement (pure), validate_standard_reference (registry read) and draft_split_project
//    (drafting: a real POST /api/v2/split-projects, which asks identity again, against a replayed answer,
//    and against a bare server that drafts for real too, its draft POSTed to standards-api as it came:
//    the drafting tool's baseline, since no server that replays can be matched by one that writes).
//  - tools/call with an agent OAuth token (a person signed in by an agent host; the draft exchanged at
//    identity for the hop to standards-api) beside the same call with an API key (goal: at least 0.9).
// A lane that drafts for real fails unless standards-api created a project for every call it counted (a
// refused draft is a tool result with isError, an HTTP 200 all the same).
// Lanes of a comparison: 3 s warm-up each, then 5 s slices in the order A B C C B A, averaged, so a
// drift of the machine during the comparison weighs on every lane alike.
// Single lanes (3 s warm-up discarded, 10 s measured; BENCH_MCP_SINGLES_ONLY=1 runs only these;
// BENCH_MCP_ONLY=<words of a comparison's label> runs only the comparisons so named):
//  - the free-text tools draft_alignment_report (also with REGISTRY_CACHE_SECONDS=0), resolve_term and
//    recommend_role, each one registry search per call, cached per release (issue 19);
//  - registry, buckets in Redis: the registry call on a gateway whose tool-call buckets are in Redis
//    (REDIS_URL, as with several replicas);
//  - registry, cache 0: the same tool with REGISTRY_CACHE_SECONDS=0 and AUTHZ_READ_CACHE_MS=0, so every
//    call reads the manifest from standards-api and asks identity.
// Two builds (BENCH_BASELINE_DIST=<the dist folder of an earlier build, inside a tree with node_modules>):
// that build's standards-api and gateway start beside this build's (the same identity), and each free-text
// tool is a comparison of this build's gateway with the earlier one, in BENCH_ROUNDS rounds (default 3) of
// slices A B B A, so a change's cost is read as a ratio of the same rounds (issue 28: within 1.2×, a calls/s
// ratio of at least 0.83). BENCH_MCP_ONLY=BENCH_BASELINE_DIST runs only these.
// Redis: BENCH_REDIS_URL, default redis://127.0.0.1:6379 (keys under a random prefix).
// identity, standards-api, the gateways and the bare servers share CPU 0 (embedded PGlite databases in a
// temporary folder); autocannon (10 connections) runs alone on CPU 1.
// Run from the repository root: `npm run bench:mcp` (builds the three services first). Prints Markdown
// tables; raw results go to tools/bench/results/mcp-gateway.json.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The valid scenario content the tests use (plain data; Node strips the types). Imported from its own
// file: the `@stdreg/server-kit/testing` alias the tests import it through is not known to Node.
import { sampleScenario } from '../../libs/server-kit/src/testing/sample-scenario.ts';
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
  requestJson as json,
  run,
  startServer,
  waitForStatus,
  importSignedInPartner,
} from './bench-kit.mjs';

const MAIN = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST ? path.resolve(process.env.BENCH_BASELINE_DIST) : null;
const BASELINE_MAIN = (app) => path.join(BASELINE_DIST, 'apps', app, 'main.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BARE_MCP_SERVER = path.join(import.meta.dirname, 'bare-mcp-server.mjs');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/mcp-gateway.json');
const LOAD = { connections: 10, pipelining: 1, warmupSeconds: 3, durationSeconds: 10, sliceSeconds: 5 };
// A drafting lane leaves thousands of drafts in one organization, past standards-api's default bound (500), whose
// refusals would fail the lane: the bench measures drafting, not the bound.
const DRAFTS_UNBOUNDED = { SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: '100000' };
const serviceToken = randomBytes(32).toString('base64url');
const tempDir = makeTempDir('stdreg-bench-mcp-');

function baseEnv(dataDir) {
  const env = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  return env;
}

async function startService(app, portVariable, extra, chosenPort, main = MAIN(app)) {
  const port = chosenPort ?? (await freePort());
  const dataDir = path.join(tempDir, `${app}-${port}`);
  mkdirSync(dataDir);
  log(`starting ${app} on port ${port}${main === MAIN(app) ? '' : ` (${main})`}`);
  startServer(app, [main], { ...baseEnv(dataDir), [portVariable]: String(port), ...extra });
  await waitForStatus(app, port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}`, dataDir };
}

async function startBareServer(fixtureFile, tuned, draftsAt) {
  const port = await freePort();
  const name = `bare MCP SDK server${tuned ? ' (tuned)' : ''}${draftsAt ? ' (drafting)' : ''}`;
  log(`starting ${name} on port ${port}`);
  const modes = [...(tuned ? ['--tuned'] : []), ...(draftsAt ? [`--drafts-at=${draftsAt}`] : [])];
  startServer(name, [BARE_MCP_SERVER, fixtureFile, String(port), ...modes], process.env);
  await waitForStatus(name, port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}` };
}

function toolCall(name, args) {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
}

/** The calls the lanes make, by name. */
const CALLS = {
  pure: { tool: 'calculate_draft_settlement', body: toolCall('calculate_draft_settlement', { content: sampleScenario() }) },
  registry: { tool: 'validate_standard_reference', body: toolCall('validate_standard_reference', { reference: 'RUL-3@1.0#2' }) },
  alignment: {
    tool: 'draft_alignment_report',
    body: toolCall('draft_alignment_report', {
      practice:
        'Our AI agent releases payments to partners automatically every Friday; nobody signs off on the payment instructions. The same analyst prepares the monthly settlement run and approves it.',
    }),
  },
  term: { tool: 'resolve_term', body: toolCall('resolve_term', { text: 'settlement' }) },
  role: {
    tool: 'recommend_role',
    body: toolCall('recommend_role', { description: 'Someone to sign off the monthly payout run before it is posted' }),
  },
  draft: {
    tool: 'draft_split_project',
    body: toolCall('draft_split_project', {
      name: 'Bench draft',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    }),
  },
};

/** What a lane calls: gateways (started in main) and bare servers, by name. */
const TARGET_LABELS = {
  gateway: 'gateway',
  gatewayWithoutReadCache: 'gateway, AUTHZ_READ_CACHE_MS=0 (identity asked every call)',
  bare: 'bare MCP SDK server (the SDK example as documented)',
  bareTuned: 'bare MCP SDK server, tuned (shared validator, finished answer not closed)',
  bareDrafting: 'bare MCP SDK server drafting for real (its draft POSTed to standards-api as it came)',
  gatewayRedis: 'gateway, tool-call buckets in Redis',
  gatewayRegistryUncached: 'gateway, REGISTRY_CACHE_SECONDS=0 (manifest read from standards-api every call)',
  baselineGateway: 'gateway and standards-api of BENCH_BASELINE_DIST',
  baselineGatewayRegistryUncached: 'gateway and standards-api of BENCH_BASELINE_DIST, REGISTRY_CACHE_SECONDS=0',
};

/** A lane: one target called with one credential (a name in `credentials`, see main) and one call. */
const lane = (target, call, credential = 'apiKey') => ({ target, call, credential });

/**
 * Lanes measured in the same rounds; every lane's calls/s is divided by the second lane's. `goal` is
 * for the first lane's ratio (an agent's token: at most 10 % fewer calls per second than an API key).
 */
const COMPARISONS = [
  {
    label: 'validate_standard_reference: an agent OAuth token beside an API key',
    goal: 0.9,
    lanes: [lane('gateway', 'registry', 'agentToken'), lane('gateway', 'registry', 'apiKey')],
  },
  {
    label: 'draft_split_project: an agent OAuth token (exchanged for the hop) beside an API key',
    goal: 0.9,
    lanes: [lane('gateway', 'draft', 'agentToken'), lane('gateway', 'draft', 'apiKey')],
  },
  {
    label: 'calculate_draft_settlement (pure)',
    goal: 1.0,
    lanes: [lane('gateway', 'pure'), lane('bare', 'pure'), lane('bareTuned', 'pure'), lane('gatewayWithoutReadCache', 'pure')],
  },
  {
    label: 'validate_standard_reference (registry read, cache 5 s)',
    goal: 1.0,
    lanes: [
      lane('gateway', 'registry'),
      lane('bare', 'registry'),
      lane('bareTuned', 'registry'),
      lane('gatewayWithoutReadCache', 'registry'),
    ],
  },
  {
    label: 'draft_split_project (drafting: POST to standards-api every call; beside a bare server that drafts too, and the replaying ones)',
    goal: 0.8,
    lanes: [lane('gateway', 'draft'), lane('bareDrafting', 'draft'), lane('bare', 'draft'), lane('bareTuned', 'draft')],
  },
];

/** With BENCH_BASELINE_DIST: each free-text tool, this build's gateway beside the earlier build's (goal: at most 1.2× the cost). */
const BASELINE_COMPARISONS = BASELINE_DIST
  ? ['alignment', 'term', 'role'].flatMap((call) => [
      {
        label: `${CALLS[call].tool}: this build beside BENCH_BASELINE_DIST`,
        goal: 1 / 1.2,
        rounds: ROUNDS,
        lanes: [lane('gateway', call), lane('baselineGateway', call)],
      },
      {
        label: `${CALLS[call].tool}, REGISTRY_CACHE_SECONDS=0: this build beside BENCH_BASELINE_DIST`,
        goal: 1 / 1.2,
        rounds: ROUNDS,
        lanes: [lane('gatewayRegistryUncached', call), lane('baselineGatewayRegistryUncached', call)],
      },
    ])
  : [];

/** Lanes measured alone (warm-up, then one stretch). */
const SINGLE_LANES = [
  lane('gatewayRedis', 'registry'),
  lane('gatewayRegistryUncached', 'registry'),
  // The free-text tools (issue 19): one registry search per call, cached per release like any read.
  lane('gateway', 'alignment'),
  lane('gatewayRegistryUncached', 'alignment'),
  lane('gateway', 'term'),
  lane('gateway', 'role'),
];

/** BENCH_MCP_SINGLES_ONLY=1 measures the single lanes alone (the comparisons take most of the run). */
const SINGLES_ONLY = process.env.BENCH_MCP_SINGLES_ONLY === '1';
/** BENCH_MCP_ONLY=<words>: only the comparisons whose label contains these words, and no single lane. */
const ONLY = process.env.BENCH_MCP_ONLY;
const chosenComparisons = [...(SINGLES_ONLY ? [] : COMPARISONS), ...BASELINE_COMPARISONS].filter(
  (comparison) => !ONLY || comparison.label.includes(ONLY),
);
const chosenSingles = ONLY ? [] : SINGLE_LANES;

/** Every decision identity has answered so far (`authorization_decisions_total{side="decided"}`). */
async function identityDecisions(identity) {
  const text = (await request(identity.port, { path: '/metrics' })).body.toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('authorization_decisions_total{side="decided"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/**
 * standards-api's answers to POST /api/v2/split-projects so far, as { created, refused } (201 and any
 * other status). A tools/call that standards-api refused still answers HTTP 200 (a tool result with
 * isError), so a drafting lane's 200s alone do not say that anything was drafted.
 */
async function draftAnswers(standardsApi) {
  const text = (await request(standardsApi.port, { path: '/metrics' })).body.toString('utf8');
  const answers = { created: 0, refused: 0 };
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_requests_total{') || !line.includes('method="POST"') || !line.includes('route="/api/v2/split-projects"'))
      continue;
    answers[line.includes('status="201"') ? 'created' : 'refused'] += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return answers;
}

/**
 * A person of a partner's organization (drafting role) whom an agent host signs in for the gateway: the
 * tests' own helper (libs/server-kit/src/testing/signed-in-partner.ts), bundled for Node here.
 */
async function agentTokenOf(identity, platformKey, mcpResource) {
  const { startSignedInPartner } = await importSignedInPartner();
  const partner = await startSignedInPartner({ url: identity.url, platformKey });
  try {
    const person = await partner.userWithRoles(['project-owner']);
    const { accessToken } = await partner.signInAgent(person.email, mcpResource, 'registry:read projects:read projects:draft');
    return accessToken;
  } finally {
    await partner.close();
  }
}

async function main() {
  const startedAt = Date.now();
  for (const app of ['identity', 'standards-api', 'mcp-gateway'])
    if (!existsSync(MAIN(app))) throw new Error(`build ${app} first (npm run bench:mcp does)`);
  for (const app of BASELINE_DIST ? ['standards-api', 'mcp-gateway'] : [])
    if (!existsSync(BASELINE_MAIN(app))) throw new Error(`BENCH_BASELINE_DIST has no ${BASELINE_MAIN(app)}`);
  // The gateway agents sign in for: its URL is identity's resource for agent tokens, so it is chosen first.
  const gatewayPort = await freePort();
  const mcpResource = `http://127.0.0.1:${gatewayPort}/mcp`;
  const identity = await startService('identity', 'IDENTITY_PORT', {
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
    OIDC_MCP_RESOURCE: mcpResource,
    RATE_LIMIT_APP_PER_MINUTE: '100000',
    RATE_LIMIT_APP_BURST: '100000',
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '100000',
  });
  const platformKey = readFileSync(path.join(identity.dataDir, 'bootstrap-platform-key'), 'utf8').trim();
  const standardsApi = await startService('standards-api', 'STANDARDS_API_PORT', {
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
    ...DRAFTS_UNBOUNDED,
  });
  const gatewayEnv = {
    IDENTITY_URL: identity.url,
    STANDARDS_API_URL: standardsApi.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
    MCP_TOOL_CALLS_PER_MINUTE_PER_KEY: '1000000',
    MCP_TOOL_CALLS_PER_MINUTE_PER_IP: '1000000',
  };
  const targets = {
    gateway: await startService(
      'mcp-gateway',
      'MCP_GATEWAY_PORT',
      { ...gatewayEnv, MCP_RESOURCE_URL: mcpResource, OIDC_ISSUER: `${identity.url}/oidc` },
      gatewayPort,
    ),
    gatewayWithoutReadCache: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', { ...gatewayEnv, AUTHZ_READ_CACHE_MS: '0' }),
    gatewayRegistryUncached: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', { ...gatewayEnv, REGISTRY_CACHE_SECONDS: '0' }),
    gatewayRedis: await startService('mcp-gateway', 'MCP_GATEWAY_PORT', {
      ...gatewayEnv,
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `stdreg-bench:${randomBytes(6).toString('hex')}:`,
    }),
  };

  if (BASELINE_DIST) {
    const baselineStandardsApi = await startService(
      'standards-api',
      'STANDARDS_API_PORT',
      { IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: serviceToken, ...DRAFTS_UNBOUNDED },
      undefined,
      BASELINE_MAIN('standards-api'),
    );
    for (const [target, extra] of [
      ['baselineGateway', {}],
      ['baselineGatewayRegistryUncached', { REGISTRY_CACHE_SECONDS: '0' }],
    ])
      targets[target] = await startService(
        'mcp-gateway',
        'MCP_GATEWAY_PORT',
        { ...gatewayEnv, STANDARDS_API_URL: baselineStandardsApi.url, ...extra },
        undefined,
        BASELINE_MAIN('mcp-gateway'),
      );
  }

  const asPlatform = { Authorization: `Bearer ${platformKey}` };
  const organization = await json(identity.port, 'POST', '/v1/organizations', asPlatform, { name: 'Bench Org' });
  const key = await json(identity.port, 'POST', '/v1/keys', asPlatform, {
    name: 'bench agent',
    class: 'app',
    organizationId: organization.id,
  });
  const credentials = { apiKey: key.secret, agentToken: SINGLES_ONLY ? null : await agentTokenOf(identity, platformKey, mcpResource) };
  const headersOf = (credential) => ({
    Authorization: `Bearer ${credentials[credential]}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  });

  // The bare servers answer what the gateway answered: its tools/list, and one captured result per call.
  const post = (target, body, credential = 'apiKey') =>
    request(target.port, { method: 'POST', path: '/mcp', headers: headersOf(credential), body });
  const listed = JSON.parse(
    (await post(targets.gateway, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).body.toString('utf8'),
  );
  const captured = {};
  for (const [name, call] of Object.entries(CALLS)) {
    const answer = await post(targets.gateway, call.body);
    const parsed = JSON.parse(answer.body.toString('utf8'));
    if (answer.status !== 200 || !parsed.result || parsed.result.isError)
      throw new Error(`${name}: the gateway's call does not succeed: ${answer.body.toString('utf8').slice(0, 300)}`);
    captured[name] = answer.body;
  }
  const fixtureFile = path.join(tempDir, 'bare-mcp-fixture.json');
  const answers = Object.fromEntries(
    Object.entries(CALLS).map(([name, call]) => [call.tool, JSON.parse(captured[name].toString('utf8')).result]),
  );
  writeFileSync(fixtureFile, JSON.stringify({ tools: listed.result.tools, answers, organizationId: organization.id }));
  targets.bare = await startBareServer(fixtureFile, false);
  targets.bareTuned = await startBareServer(fixtureFile, true);
  targets.bareDrafting = await startBareServer(fixtureFile, false, standardsApi.url);

  /** Fails unless the lane's call succeeds; a bare server must answer the captured bytes exactly. */
  async function check({ target, call, credential }) {
    const answer = await post(targets[target], CALLS[call].body, credential);
    const text = answer.body.toString('utf8');
    if (target === 'bare' || target === 'bareTuned') {
      if (answer.status !== 200 || !answer.body.equals(captured[call]))
        throw new Error(`${target} ${call}: the answer is not the gateway's, byte for byte: ${text.slice(0, 300)}`);
      return;
    }
    const parsed = JSON.parse(text);
    if (answer.status !== 200 || !parsed.result || parsed.result.isError)
      throw new Error(`${target} ${call}: the call does not succeed: ${text.slice(0, 300)}`);
  }

  const load = ({ target, call, credential }, seconds) =>
    autocannon({
      url: `${targets[target].url}/mcp`,
      connections: LOAD.connections,
      pipelining: LOAD.pipelining,
      seconds,
      method: 'POST',
      headers: Object.entries(headersOf(credential)).map(([name, value]) => `${name}=${value}`),
      body: CALLS[call].body,
    });

  /** One measured stretch of a lane, with the decisions identity answered meanwhile (any asker). */
  async function measure(measured, seconds) {
    const decisionsBefore = await identityDecisions(identity);
    const draftsBefore = await draftAnswers(standardsApi);
    const result = await load(measured, seconds);
    const decisions = (await identityDecisions(identity)) - decisionsBefore;
    assertOnlyStatus(result, 200, `${measured.target} ${measured.call}`);
    if (draftsForReal(measured)) assertDrafted(measured, result.requests.total, draftsBefore, await draftAnswers(standardsApi));
    return { requests: result.requests.total, seconds, p50Ms: result.latency.p50, p99Ms: result.latency.p99, decisions };
  }

  /** A lane whose every call POSTs a draft to standards-api (the replaying bare servers post nothing). */
  const draftsForReal = ({ target, call }) => call === 'draft' && target !== 'bare' && target !== 'bareTuned';

  /**
   * Fails unless standards-api created a project for every call answered and refused none. A call still
   * in flight when the load stopped may be created after it, never the other way round, so created may
   * exceed the calls counted.
   */
  function assertDrafted(measured, calls, before, after) {
    const created = after.created - before.created;
    const refused = after.refused - before.refused;
    if (refused > 0 || created < calls)
      throw new Error(
        `${measured.target} ${measured.call}: ${calls} calls answered 200 but standards-api created ${created} projects and refused ${refused}`,
      );
  }

  async function warmUp(measured) {
    await check(measured);
    log(`${measured.target} ${measured.call}: warm-up`);
    const draftsBefore = await draftAnswers(standardsApi);
    const result = await load(measured, LOAD.warmupSeconds);
    assertOnlyStatus(result, 200, `${measured.target} ${measured.call} warm-up`);
    if (draftsForReal(measured)) assertDrafted(measured, result.requests.total, draftsBefore, await draftAnswers(standardsApi));
  }

  const summary = (measured, stretches) => {
    const requests = stretches.reduce((sum, stretch) => sum + stretch.requests, 0);
    const seconds = stretches.reduce((sum, stretch) => sum + stretch.seconds, 0);
    const mean = (field) => stretches.reduce((sum, stretch) => sum + stretch[field], 0) / stretches.length;
    return {
      ...measured,
      label: TARGET_LABELS[measured.target],
      callsPerSecond: requests / seconds,
      p50Ms: mean('p50Ms'),
      p99Ms: mean('p99Ms'),
      identityDecisionsPerCall: stretches.reduce((sum, stretch) => sum + stretch.decisions, 0) / requests,
      requests,
    };
  };

  const comparisons = [];
  for (const comparison of chosenComparisons) {
    for (const measured of comparison.lanes) await warmUp(measured);
    const stretches = comparison.lanes.map(() => []);
    const slices = [...comparison.lanes.keys(), ...[...comparison.lanes.keys()].reverse()];
    const order = Array.from({ length: comparison.rounds ?? 1 }, () => slices).flat();
    for (const index of order) {
      log(`${comparison.lanes[index].target} ${comparison.lanes[index].call}: measuring ${LOAD.sliceSeconds} s`);
      stretches[index].push(await measure(comparison.lanes[index], LOAD.sliceSeconds));
    }
    const lanes = comparison.lanes.map((measured, index) => summary(measured, stretches[index]));
    comparisons.push({
      label: comparison.label,
      goal: comparison.goal,
      lanes: lanes.map((measured) => ({ ...measured, ratio: measured.callsPerSecond / lanes[1].callsPerSecond })),
    });
  }
  const singles = [];
  for (const measured of chosenSingles) {
    await warmUp(measured);
    log(`${measured.target} ${measured.call}: measuring`);
    singles.push(summary(measured, [await measure(measured, LOAD.durationSeconds)]));
  }

  const seconds = Math.round((Date.now() - startedAt) / 1000);
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, load: LOAD, cpus: { services: SERVER_CPU, load: LOAD_CPU }, comparisons, singles, seconds }, null, 2)}\n`,
  );
  const round = (value) => (value >= 10 ? String(Math.round(value)) : value.toFixed(1));
  const asks = (measured) => (measured.target.startsWith('bare') ? '–' : measured.identityDecisionsPerCall.toFixed(2));
  console.log(
    [
      '| tools/call | lane | calls/s | p50 ms | p99 ms | identity decisions per call | ÷ second lane (same rounds) |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
      ...comparisons.flatMap((comparison) =>
        comparison.lanes.map((measured, index) => {
          const ratio = measured.ratio.toFixed(2);
          const shown = index === 0 && comparison.goal !== null ? `**${ratio}** (goal ≥ ${comparison.goal.toFixed(2)})` : ratio;
          return `| ${index === 0 ? comparison.label : ''} | ${measured.label} | ${Math.round(measured.callsPerSecond)} | ${round(measured.p50Ms)} | ${round(measured.p99Ms)} | ${asks(measured)} | ${shown} |`;
        }),
      ),
      '',
      '| tools/call | lane | calls/s | p50 ms | p99 ms | identity decisions per call |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
      ...singles.map(
        (measured) =>
          `| ${CALLS[measured.call].tool} | ${measured.label} | ${Math.round(measured.callsPerSecond)} | ${round(measured.p50Ms)} | ${round(measured.p99Ms)} | ${asks(measured)} |`,
      ),
      '',
      `${LOAD.connections} connections. Compared lanes: ${LOAD.warmupSeconds} s warm-up each, then ${LOAD.sliceSeconds} s slices in the order A B C … C B A (p50/p99: mean of the slices); single lanes: ${LOAD.warmupSeconds} s warm-up, ${LOAD.durationSeconds} s measured.`,
      `identity, standards-api, the gateways and the bare servers on CPU ${SERVER_CPU}, autocannon on CPU ${LOAD_CPU}; embedded PGlite. Latency: autocannon whole milliseconds, truncated.`,
      'identity decisions per call count every decision identity answered during the lane, whoever asked (a draft is also authorized by standards-api).',
      `Run time: ${seconds} s.`,
    ].join('\n'),
  );
}

run(main);
