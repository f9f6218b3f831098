// Sign-in benchmark: what a user's access token costs at the authorization decision, next to an app
// key, and what a password check costs.
//  1. POST /v1/decisions on one connection back to back, then paced at 1000/s over 50 connections
//     (3 s warm-up + 10 s), each with an app key and with a signed-in user's JWT access token
//     (signature, issuer, audience, expiry, the app and the grant still there, role bindings read now);
//  2. scrypt with identity's parameters (N=2^15, r=8, p=1): milliseconds per password check.
// identity (built) runs pinned to CPU 0 on a throwaway database on this machine's PostgreSQL
// (PG_ADMIN_URL overrides postgres://postgres@127.0.0.1:5432/postgres), the load on CPU 1.
// Run from the repository root: `npm run bench:signin`. Prints a Markdown table; raw results go to
// tools/bench/results/signin.json.
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  ROOT,
  assertOnlyStatus,
  autocannon,
  createBenchDatabase,
  freePort,
  log,
  makeTempDir,
  request,
  run,
  runJsonScript,
  startServer,
  stopChild,
  waitForStatus,
} from './bench-kit.mjs';

const IDENTITY_MAIN = path.join(ROOT, 'dist/apps/identity/main.js');
const PACED_LOAD = path.join(import.meta.dirname, 'paced-load.mjs');
const RESULTS_FILE = path.join(import.meta.dirname, 'results/signin.json');
const LOAD = { connections: 50, rate: 1000, warmupSeconds: 3, durationSeconds: 10 };
const AUDIENCE = 'urn:stdreg:standards-api';
const REDIRECT_URI = 'https://bench.example/callback';
const PASSWORD = 'a long and unusual passphrase';
const serviceToken = randomBytes(30).toString('base64url');
const tempDir = makeTempDir('signin-bench-');

/** A minimal user agent: cookies by name, one request at a time, redirects not followed. */
class Agent {
  cookies = new Map();
  constructor(port) {
    this.port = port;
  }
  async send(method, target, { headers = {}, form } = {}) {
    const url = new URL(target, `http://127.0.0.1:${this.port}`);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await request(this.port, {
      method,
      path: `${url.pathname}${url.search}`,
      headers: {
        ...headers,
        ...(cookie ? { Cookie: cookie } : {}),
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } : {}),
      },
      body,
    });
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      this.cookies.set(name.trim(), value.join('='));
    }
    return { status: response.status, location: response.headers.location, text: response.body.toString('utf8') };
  }
}

async function api(port, method, urlPath, token, body, expected) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {
    Authorization: `Bearer ${token}`,
    ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
  };
  const response = await request(port, { method, path: urlPath, headers, body: payload });
  if (response.status !== expected)
    throw new Error(`${method} ${urlPath}: ${response.status} ${response.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(response.body.toString('utf8'));
}

const csrfOf = (html) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** Partner, app, user with a password and a role, then a sign-in through the pages: the API access token. */
async function signedInUser(port) {
  const platformKey = readFileSync(path.join(tempDir, 'bootstrap-platform-key'), 'utf8').trim();
  const organization = await api(port, 'POST', '/v1/organizations', platformKey, { name: 'Bench Org' }, 201);
  const key = await api(port, 'POST', '/v1/keys', platformKey, { name: 'bench', class: 'app', organizationId: organization.id }, 201);
  const app = await api(port, 'POST', '/v1/apps', key.secret, { name: 'Bench', type: 'Traditional', redirectUris: [REDIRECT_URI] }, 201);
  const user = await api(
    port,
    'POST',
    '/v1/users',
    key.secret,
    {
      registryId: app.app.registryId,
      externalId: 'bench-user',
      email: 'bench@example.com',
      emailVerified: true,
      displayName: 'Bench',
      locale: 'en',
    },
    201,
  );
  await api(
    port,
    'POST',
    '/v1/role-bindings',
    platformKey,
    { uid: user.uid, role: 'scenario-modeller', organizationId: organization.id },
    201,
  );
  const setup = await api(port, 'POST', `/v1/users/${user.id}/password-setup`, key.secret, undefined, 201);
  const agent = new Agent(port);
  const setupPath = new URL(setup.setupUrl).pathname;
  const page = await agent.send('GET', setupPath);
  const set = await agent.send('POST', setupPath, { form: { csrf: csrfOf(page.text), password: PASSWORD, confirm: PASSWORD } });
  if (set.status !== 200) throw new Error(`setting the password answered ${set.status}`);

  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`http://127.0.0.1:${port}/oidc/auth`);
  Object.entries({
    client_id: app.app.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid api',
    resource: AUDIENCE,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).forEach(([name, value]) => authorize.searchParams.set(name, value));
  let step = await agent.send('GET', authorize.toString());
  const follow = async () => {
    while (step.location && !step.location.startsWith(REDIRECT_URI)) step = await agent.send('GET', step.location);
  };
  await follow();
  const interaction = /action="([^"]+\/login)[^"]*"/.exec(step.text)[1];
  step = await agent.send('POST', interaction, { form: { csrf: csrfOf(step.text), email: 'bench@example.com', password: PASSWORD } });
  await follow();
  const consent = /action="([^"]+\/consent)[^"]*"/.exec(step.text)[1];
  step = await agent.send('POST', consent, { form: { csrf: csrfOf(step.text), decision: 'allow' } });
  await follow();
  const code = new URL(step.location).searchParams.get('code');
  const tokenBody = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    resource: AUDIENCE,
  }).toString();
  const tokens = await request(port, {
    method: 'POST',
    path: '/oidc/token',
    headers: {
      Authorization: `Basic ${Buffer.from(`${app.app.clientId}:${app.clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': Buffer.byteLength(tokenBody),
    },
    body: tokenBody,
  });
  if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}: ${tokens.body.toString('utf8')}`);
  return { organizationId: organization.id, appKey: key.secret, accessToken: JSON.parse(tokens.body.toString('utf8')).access_token };
}

async function pacedDecision(port, label, credential, organizationId) {
  const headers = { Authorization: `Bearer ${serviceToken}`, 'Content-Type': 'application/json' };
  const body = JSON.stringify({ credential, action: 'split-project:read', resource: { organizationId } });
  const check = await request(port, {
    method: 'POST',
    path: '/v1/decisions',
    headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
    body,
  });
  const answer = JSON.parse(check.body.toString('utf8'));
  if (answer.decision !== 'allow') throw new Error(`${label}: the decision was ${JSON.stringify(answer)}`);
  const result = await runJsonScript('paced-load', PACED_LOAD, [
    `http://127.0.0.1:${port}/v1/decisions`,
    'POST',
    JSON.stringify(headers),
    body,
    LOAD.connections,
    LOAD.rate,
    LOAD.warmupSeconds,
    LOAD.durationSeconds,
  ]);
  const statuses = Object.keys(result.statusCounts);
  if (result.errors > 0 || statuses.length !== 1 || statuses[0] !== '200')
    throw new Error(`${label}: ${JSON.stringify(result.statusCounts)}`);
  const ms = (micros) => micros / 1000;
  const row = {
    label,
    requests: result.requests,
    p50Ms: ms(result.latencyMicros.p50),
    p99Ms: ms(result.latencyMicros.p99),
    maxMs: ms(result.latencyMicros.max),
    paced: result,
  };
  log(`${label}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`);
  return row;
}

/** One connection, back to back for 10 s: a decision's own latency, without queueing. */
async function singleConnection(port, label, credential, organizationId) {
  const body = JSON.stringify({ credential, action: 'split-project:read', resource: { organizationId } });
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/decisions`,
    connections: 1,
    pipelining: 1,
    seconds: LOAD.durationSeconds,
    method: 'POST',
    body,
    headers: [`Authorization=Bearer ${serviceToken}`, 'Content-Type=application/json'],
  });
  assertOnlyStatus(result, 200, label);
  const row = {
    label: `${label}, 1 connection`,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
  };
  log(`${row.label}: ${Math.round(result.requests.average)} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`);
  return row;
}

function scryptCost() {
  const salt = randomBytes(16);
  scryptSync(PASSWORD, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 256 * 2 ** 15 * 8 });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const start = process.hrtime.bigint();
    scryptSync(PASSWORD, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 256 * 2 ** 15 * 8 });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[10], maxMs: times[19] };
}

run(async () => {
  const databaseName = `signin_bench_${randomBytes(6).toString('hex')}`;
  const databaseUrl = await createBenchDatabase(databaseName);
  const port = await freePort();
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    IDENTITY_PORT: String(port),
    LOG_LEVEL: 'warn',
    DATA_DIR: tempDir,
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_PLATFORM_KEY: 'auto',
    DECISION_SERVICE_TOKENS: `bench:${serviceToken}`,
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '1000',
  };
  delete env.REDIS_URL;
  delete env.OIDC_ISSUER;
  const child = startServer('identity', [IDENTITY_MAIN], env);
  await waitForStatus('identity', port, '/readyz', 200);
  const setup = await signedInUser(port);
  log('signed in through the pages; measuring');
  const appKey = { kind: 'api_key', value: setup.appKey };
  const accessToken = { kind: 'access_token', value: setup.accessToken };
  const rows = [
    await singleConnection(port, 'app key', appKey, setup.organizationId),
    await singleConnection(port, 'user access token', accessToken, setup.organizationId),
    await pacedDecision(port, `app key, paced ${LOAD.rate}/s over ${LOAD.connections} connections`, appKey, setup.organizationId),
    await pacedDecision(
      port,
      `user access token, paced ${LOAD.rate}/s over ${LOAD.connections} connections`,
      accessToken,
      setup.organizationId,
    ),
  ];
  await stopChild(child);
  const scrypt = scryptCost();
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ at: new Date().toISOString(), load: LOAD, rows, scrypt }, null, 2)}\n`);
  console.log(`| POST /v1/decisions (${LOAD.durationSeconds} s) | requests | p50 ms | p99 ms | max ms |`);
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.label} | ${row.requests} | ${row.p50Ms} | ${row.p99Ms} | ${row.maxMs} |`);
  console.log(
    `\nscrypt (N=2^15, r=8, p=1), one password check: median ${scrypt.medianMs.toFixed(1)} ms, max ${scrypt.maxMs.toFixed(1)} ms`,
  );
});
