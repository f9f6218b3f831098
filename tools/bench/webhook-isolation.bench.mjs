// Webhook isolation benchmark (issue 27), on this machine's PostgreSQL (PG_ADMIN_URL overrides): one
// identity with its dispatcher delivers role grants of two organizations. Organization H's endpoint
// answers at once; organization S's endpoint, in the middle phase only, hangs on every request (never
// answers; the dispatcher gives up after WEBHOOK_TIMEOUT_MS). After an unmeasured warm-up, three phases
// in one run, each with the same writes to both organizations (S's events are recorded in every phase,
// delivered nowhere without its endpoint): without the hanging endpoint, with it, and without it again
// (removed, its requests ended).
// The figure: H's commit-to-delivery p50/p99 with the hanging receiver beside without it (goal p99 ≤ 1.5×).
// Run from the repository root: `npm run bench:webhook-isolation` (builds first). Prints a Markdown
// summary; raw results go to tools/bench/results/webhook-isolation.json.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as kit from './bench-kit.mjs';

const MAIN = path.join(kit.ROOT, 'dist/apps/identity/main.js');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/webhook-isolation.json');
const GRANTS_PER_PHASE = 200;
const CALLERS_PER_ORGANIZATION = 4;
const TIMEOUT_MS = 10_000;
const WARM_UP_GRANTS = 50;
const tempDir = kit.makeTempDir('stdreg-bench-webhook-isolation-');
const suffix = randomBytes(4).toString('hex');

async function call(url, method, token, body, status) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The receivers: /healthy answers at once after verifying; /hangs verifies and never answers. */
async function startReceiver() {
  const secrets = new Map();
  const arrivals = [];
  let hung = 0;
  let unverified = 0;
  const server = createServer(
    kit.webhookHandler(
      secrets,
      ({ req, res, event, at }) => {
        if (req.url === '/hangs') {
          hung++;
          return;
        }
        arrivals.push({ at, id: event.id, committedAt: Date.parse(event.timestamp) });
        res.writeHead(204).end();
      },
      () => unverified++,
    ),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (p) => `http://127.0.0.1:${server.address().port}${p}`,
    secrets,
    arrivals,
    hung: () => hung,
    unverified: () => unverified,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function until(condition, what, seconds = 300) {
  for (const deadline = Date.now() + seconds * 1000; !condition();) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function main() {
  if (!existsSync(MAIN)) throw new Error('build identity first (npm run bench:webhook-isolation does)');
  const databaseUrl = await kit.createBenchDatabase(`bench_webhook_isolation_${suffix}`);
  const receiver = await startReceiver();
  const port = await kit.freePort();
  const dataDir = path.join(tempDir, 'identity');
  mkdirSync(dataDir);
  const env = { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, IDENTITY_PORT: String(port) };
  for (const name of ['REDIS_URL', 'REDIS_KEY_PREFIX']) delete env[name];
  kit.startServer('identity', [MAIN], {
    ...env,
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    RATE_LIMIT_PLATFORM_PER_MINUTE: '100000',
    RATE_LIMIT_PLATFORM_BURST: '100000',
  });
  await kit.waitForStatus('identity', port, '/readyz', 200);
  const base = `http://127.0.0.1:${port}/v1`;
  const platformKey = readFileSync(path.join(dataDir, 'bootstrap-platform-key'), 'utf8').trim();

  async function organization(name) {
    const org = await call(`${base}/organizations`, 'POST', platformKey, { name }, 201);
    const app = await call(
      `${base}/apps`,
      'POST',
      platformKey,
      { name, type: 'Traditional', redirectUris: ['https://bench.example/cb'] },
      201,
    );
    const uids = [];
    for (let batch = 0; batch < 4; batch++) {
      const synced = await call(
        `${base}/sync`,
        'POST',
        platformKey,
        {
          registryId: app.app.registryId,
          records: Array.from({ length: GRANTS_PER_PHASE }, (_, i) => ({
            externalId: `${name}-${batch}-${i}`,
            email: `${name}-${batch}-${i}@bench.example`.toLowerCase(),
            emailVerified: false,
            displayName: 'B',
            locale: 'en',
          })),
        },
        200,
      );
      uids.push(...synced.results.map((result) => result.uid));
    }
    return { id: org.id, uids };
  }

  async function subscribe(org, receiverPath) {
    const created = await call(
      `${base}/webhook-endpoints`,
      'POST',
      platformKey,
      { url: receiver.url(receiverPath), eventTypes: ['role.granted'], organizationId: org.id },
      201,
    );
    receiver.secrets.set(receiverPath, created.secret);
    return created.endpoint.id;
  }

  async function grant(org, uids) {
    let next = 0;
    await Promise.all(
      Array.from({ length: CALLERS_PER_ORGANIZATION }, async () => {
        for (let index = next++; index < uids.length; index = next++) {
          await call(`${base}/role-bindings`, 'POST', platformKey, { uid: uids[index], role: 'investor', organizationId: org.id }, 201);
        }
      }),
    );
  }

  const healthy = await organization('Healthy');
  const slow = await organization('Slow');
  await subscribe(healthy, '/healthy');

  async function phase(index, label) {
    const before = receiver.arrivals.length;
    const slice = (uids) => uids.slice(index * GRANTS_PER_PHASE, (index + 1) * GRANTS_PER_PHASE);
    kit.log(`phase ${index + 1}: ${label}`);
    await Promise.all([grant(healthy, slice(healthy.uids)), grant(slow, slice(slow.uids))]);
    await until(() => receiver.arrivals.length >= before + GRANTS_PER_PHASE, `the healthy endpoint's events of phase ${index + 1}`);
    const stats = kit.latencyStats(receiver.arrivals.slice(before).map((arrival) => arrival.at - arrival.committedAt));
    kit.log(`${label}: ${JSON.stringify(stats)}`);
    return stats;
  }

  // Unmeasured: the process's first deliveries (JIT, pools) would otherwise weigh on the first phase only.
  await Promise.all([grant(healthy, healthy.uids.slice(-WARM_UP_GRANTS)), grant(slow, slow.uids.slice(-WARM_UP_GRANTS))]);
  await until(() => receiver.arrivals.length >= WARM_UP_GRANTS, 'the warm-up events');
  const without = await phase(0, 'without a hanging receiver');
  const hangingEndpoint = await subscribe(slow, '/hangs');
  const withHanging = await phase(1, 'with a receiver hanging on every request');
  const hungRequests = receiver.hung();
  await call(`${base}/webhook-endpoints/${hangingEndpoint}`, 'DELETE', platformKey, undefined, 204);
  // The requests on the wire when it was removed end at their timeout; the last phase starts after them.
  await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 1000));
  const withoutAgain = await phase(2, 'without it again (removed)');
  receiver.close();

  const mean = (a, b) => (a + b) / 2;
  const results = {
    at: new Date().toISOString(),
    grantsPerPhase: GRANTS_PER_PHASE,
    without,
    withHanging,
    withoutAgain,
    hungRequests,
    p99Ratio: Number((withHanging.p99 / mean(without.p99, withoutAgain.p99)).toFixed(2)),
    p50Ratio: Number((withHanging.p50 / mean(without.p50, withoutAgain.p50)).toFixed(2)),
    unverified: receiver.unverified(),
  };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`| healthy endpoint, commit-to-delivery (${GRANTS_PER_PHASE} events a phase) | p50 | p99 |
|---|---|---|
| without a hanging receiver | ${without.p50} ms | ${without.p99} ms |
| with a receiver hanging on every request (${hungRequests} requests hung) | ${withHanging.p50} ms | ${withHanging.p99} ms |
| without it again (removed) | ${withoutAgain.p50} ms | ${withoutAgain.p99} ms |
| with / without (the mean of the two phases without) | ${results.p50Ratio} | ${results.p99Ratio} |`);
}

kit.run(main);
