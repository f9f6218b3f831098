// Partner events benchmark (issue 20), on this machine's PostgreSQL (PG_ADMIN_URL overrides):
//  1. throughput and latency: two identity replicas on one database, each with its dispatcher, deliver
//     identity's events (role grants, committed by 8 concurrent callers spread over both replicas) to a
//     receiver in this process that verifies every signature with `standardwebhooks`; events/s from the
//     first commit to the last delivery, and commit-to-delivery p50/p99 (commit: the event's timestamp,
//     taken just before its transaction commits; delivery: when the receiver has the request);
//  2. the cost the outbox adds to a settlement posting: the confirmed POST of a settlement run (a
//     signed-in person, the second of the two steps: the write with its outbox event) timed with no endpoint
//     registered for the organization and with one subscribed to every event, in alternating rounds of
//     the same run; with an endpoint, each posting's event also crosses to identity and is delivered,
//     and those commit-to-delivery times are reported too.
// Figures are ratios within one run. Run from the repository root: `npm run bench:events` (builds first).
// Prints a Markdown summary; raw results go to tools/bench/results/events.json.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sampleScenario } from '../../libs/server-kit/src/testing/sample-scenario.ts';
import {
  createBenchDatabase,
  freePort,
  log,
  makeTempDir,
  ROOT,
  run,
  startServer,
  waitForStatus,
  importSignedInPartner,
  webhookHandler,
} from './bench-kit.mjs';

const MAIN = (app) => path.join(ROOT, 'dist/apps', app, 'main.js');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/events.json');
const GRANTS = 1000;
const CONCURRENCY = 8;
const POSTING_ROUNDS = 4;
const POSTINGS_PER_ROUND = 15;
const serviceToken = randomBytes(32).toString('base64url');
const tempDir = makeTempDir('stdreg-bench-events-');
const suffix = randomBytes(4).toString('hex');

function baseEnv(dataDir) {
  const env = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  return env;
}

async function startService(app, portVariable, extra, sharedDataDir) {
  const port = await freePort();
  const dataDir = sharedDataDir ?? path.join(tempDir, `${app}-${port}`);
  if (!sharedDataDir) mkdirSync(dataDir);
  log(`starting ${app} on port ${port}`);
  startServer(app, [MAIN(app)], { ...baseEnv(dataDir), [portVariable]: String(port), ...extra });
  await waitForStatus(app, port, '/readyz', 200);
  return { port, url: `http://127.0.0.1:${port}`, dataDir };
}

async function call(url, method, token, body, headers = {}) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function expectCall(url, method, token, body, status, headers) {
  const answer = await call(url, method, token, body, headers);
  if (answer.status !== status) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The receiver: verifies every request, records when each event arrived. */
async function startReceiver() {
  const secrets = new Map();
  const arrivals = [];
  let unverified = 0;
  const server = createServer(
    webhookHandler(
      secrets,
      ({ req, res, event, at }) => {
        arrivals.push({
          at,
          webhookId: req.headers['webhook-id'],
          id: event.id,
          type: event.type,
          committedAt: Date.parse(event.timestamp),
        });
        res.writeHead(204).end();
      },
      () => unverified++,
    ),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: (p) => `http://127.0.0.1:${server.address().port}${p}`, secrets, arrivals, unverified: () => unverified, server };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const median = (values) => percentile(values, 50);

async function until(condition, what, seconds = 300) {
  for (const deadline = Date.now() + seconds * 1000; !condition();) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main() {
  for (const app of ['identity', 'standards-api'])
    if (!existsSync(MAIN(app))) throw new Error(`build ${app} first (npm run bench:events does)`);
  const identityDb = await createBenchDatabase(`bench_events_identity_${suffix}`);
  const standardsDb = await createBenchDatabase(`bench_events_standards_${suffix}`);
  const receiver = await startReceiver();
  const identityEnv = {
    DATABASE_URL: identityDb,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `standards-api:${serviceToken}`,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    RATE_LIMIT_PLATFORM_PER_MINUTE: '100000',
    RATE_LIMIT_PLATFORM_BURST: '100000',
    RATE_LIMIT_APP_PER_MINUTE: '100000',
    RATE_LIMIT_APP_BURST: '100000',
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '100000',
  };
  const first = await startService('identity', 'IDENTITY_PORT', identityEnv);
  const platformKey = readFileSync(path.join(first.dataDir, 'bootstrap-platform-key'), 'utf8').trim();
  // The second replica shares the first one's generated secrets (DATA_DIR), as replicas share configured ones.
  const second = await startService('identity', 'IDENTITY_PORT', { ...identityEnv, BOOTSTRAP_PLATFORM_KEY: 'off' }, first.dataDir);
  const standards = await startService('standards-api', 'STANDARDS_API_PORT', {
    DATABASE_URL: standardsDb,
    IDENTITY_URL: first.url,
    IDENTITY_SERVICE_TOKEN: serviceToken,
  });

  // 1. Throughput: identity's events, two dispatchers.
  const org = await expectCall(`${first.url}/v1/organizations`, 'POST', platformKey, { name: 'Bench events' }, 201);
  const endpoint = await expectCall(
    `${first.url}/v1/webhook-endpoints`,
    'POST',
    platformKey,
    { url: receiver.url('/throughput'), eventTypes: ['role.granted'], organizationId: org.id },
    201,
  );
  receiver.secrets.set('/throughput', endpoint.secret);
  const app = await expectCall(
    `${first.url}/v1/apps`,
    'POST',
    platformKey,
    { name: 'Bench', type: 'Traditional', redirectUris: ['https://bench.example/cb'] },
    201,
  );
  const uids = [];
  for (let batch = 0; batch < GRANTS / 250; batch++) {
    const synced = await expectCall(
      `${first.url}/v1/sync`,
      'POST',
      platformKey,
      {
        registryId: app.app.registryId,
        records: Array.from({ length: 250 }, (_, i) => ({
          externalId: `b${batch}-${i}`,
          email: `b${batch}-${i}@bench.example`,
          emailVerified: false,
          displayName: 'B',
          locale: 'en',
        })),
      },
      200,
    );
    uids.push(...synced.results.map((result) => result.uid));
  }
  log(`granting ${GRANTS} roles through both replicas`);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let index = next++; index < uids.length; index = next++) {
        const url = (worker % 2 === 0 ? first : second).url;
        await expectCall(
          `${url}/v1/role-bindings`,
          'POST',
          platformKey,
          { uid: uids[index], role: 'investor', organizationId: org.id },
          201,
        );
      }
    }),
  );
  await until(() => new Set(receiver.arrivals.filter((a) => a.type === 'role.granted').map((a) => a.id)).size >= GRANTS, 'every grant');
  const grants = receiver.arrivals.filter((a) => a.type === 'role.granted');
  const firstCommit = Math.min(...grants.map((a) => a.committedAt));
  const lastArrival = Math.max(...grants.map((a) => a.at));
  const latencies = grants.map((a) => a.at - a.committedAt);
  const throughput = {
    events: GRANTS,
    requests: grants.length,
    duplicates: grants.length - new Set(grants.map((a) => a.webhookId)).size,
    eventsPerSecond: Math.round((GRANTS / (lastArrival - firstCommit)) * 1000),
    p50Ms: median(latencies),
    p99Ms: percentile(latencies, 99),
    unverified: receiver.unverified(),
  };
  log(`throughput: ${JSON.stringify(throughput)}`);

  // 2. Settlement postings with and without an endpoint.
  const { startSignedInPartner } = await importSignedInPartner();
  const partner = await startSignedInPartner({ url: first.url, platformKey });
  const person = await partner.userWithRoles(['project-owner']);
  const token = await partner.signIn(person.email);
  const api = `${standards.url}/api/v2`;
  const as = { 'x-organization-id': partner.organizationId };
  const created = await expectCall(
    `${api}/split-projects`,
    'POST',
    token,
    { name: 'Bench', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } },
    201,
    as,
  );
  const projectId = created.project.id;
  const confirmed = async (url, body) => {
    const challenge = await expectCall(url, 'POST', token, body, 428, as);
    const started = process.hrtime.bigint();
    const result = await expectCall(url, 'POST', token, { ...body, confirmationToken: challenge.confirmationToken }, 201, as);
    return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  await confirmed(`${api}/split-projects/${projectId}/activate`, { scenarioId: created.scenario.id });
  let period = 0;
  const postOne = () => {
    const index = period++;
    return confirmed(`${api}/split-projects/${projectId}/settlement-runs`, {
      periodId: `${2030 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`,
      periodEnd: new Date().toISOString(),
      revenue: '1000.00',
      costs: '100.00',
    });
  };
  for (let warm = 0; warm < 5; warm++) await postOne();
  const withoutEndpoint = [];
  const withEndpoint = [];
  let postingEndpoint = null;
  for (let round = 0; round < POSTING_ROUNDS; round++) {
    const subscribed = round % 2 === 1;
    if (subscribed && !postingEndpoint) {
      postingEndpoint = await expectCall(
        `${first.url}/v1/webhook-endpoints`,
        'POST',
        partner.appKey,
        { url: receiver.url('/postings'), eventTypes: ['settlement_run.posted', 'split_project.created', 'rule_version.activated'] },
        201,
      );
      receiver.secrets.set('/postings', postingEndpoint.secret);
    } else if (postingEndpoint) {
      await expectCall(
        `${first.url}/v1/webhook-endpoints/${postingEndpoint.endpoint.id}`,
        'PATCH',
        partner.appKey,
        { enabled: subscribed },
        200,
      );
    }
    for (let i = 0; i < POSTINGS_PER_ROUND; i++) (subscribed ? withEndpoint : withoutEndpoint).push((await postOne()).ms);
  }
  await until(
    () => receiver.arrivals.filter((a) => a.type === 'settlement_run.posted').length >= POSTINGS_PER_ROUND * (POSTING_ROUNDS / 2),
    'posted runs',
  );
  const postedLatencies = receiver.arrivals.filter((a) => a.type === 'settlement_run.posted').map((a) => a.at - a.committedAt);
  await partner.close();
  receiver.server.close();

  const postings = {
    withoutEndpointMedianMs: Number(median(withoutEndpoint).toFixed(1)),
    withEndpointMedianMs: Number(median(withEndpoint).toFixed(1)),
    ratio: Number((median(withEndpoint) / median(withoutEndpoint)).toFixed(2)),
    postedEventDelivery: { events: postedLatencies.length, p50Ms: median(postedLatencies), p99Ms: percentile(postedLatencies, 99) },
  };
  const results = { at: new Date().toISOString(), throughput, postings };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`| measure | value |
|---|---|
| identity events delivered (two replicas, two dispatchers) | ${throughput.events} (${throughput.requests} requests, ${throughput.duplicates} duplicates, ${throughput.unverified} unverified) |
| events/s, first commit to last delivery | ${throughput.eventsPerSecond} |
| commit-to-delivery p50 / p99 | ${throughput.p50Ms} ms / ${throughput.p99Ms} ms |
| settlement posting (confirmed write), median, no endpoint | ${postings.withoutEndpointMedianMs} ms |
| settlement posting, median, endpoint subscribed | ${postings.withEndpointMedianMs} ms |
| with / without endpoint | ${postings.ratio} |
| settlement_run.posted commit-to-delivery p50 / p99 (crossing to identity) | ${postings.postedEventDelivery.p50Ms} ms / ${postings.postedEventDelivery.p99Ms} ms |`);
}

run(main);
