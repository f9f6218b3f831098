// Cost at scale (issue 21), the identity mirror area: how identity's reads and its sync grow with a
// partner's user mirror, its keys and its role bindings. Two organizations in one run against one
// database, each a partner with a registered app (libs/server-kit/src/testing/signed-in-partner.ts):
//  - sample: 1 000 mirror users synced through POST /v1/sync, 100 keys, 100 role bindings;
//  - full: 1 000 000 mirror users, 100 000 keys, 100 000 role bindings. The users' first and last
//    stretch go through POST /v1/sync in batches of 1 000 (records per second and batch latency, into
//    an empty registry and into a full one), the rest is generated in SQL between them
//    (tools/scale/identity-mirror-generator.mjs, seeded); keys and bindings are generated too.
// Then, sample and full alternating request by request, p50 and p99 of sequential requests: the first
// and the last page of GET /v1/users, the look-up by email, one user, and POST /v1/decisions with one
// of the generated app keys and with a signed-in user's access token. Decisions are measured with the
// default leases (KEY_LEASE_MS, TOKEN_SUBJECT_LEASE_MS: 250 ms, so most decisions read nothing), then
// once more on identity restarted with both leases at 0 (every decision reads the database).
// `--size small` shrinks the full organization for a CI smoke run: it proves the bench runs and the
// pages and answers are right, it asserts no timing. `--size full` (the default) is the size of the
// figures in docs/performance.md; with `--explain` it also rewrites the EXPLAIN of the hot queries
// beside their repositories (users, keys, access-token subject).
// identity (built) runs pinned to CPU 0 on a throwaway database on this machine's PostgreSQL
// (PG_ADMIN_URL overrides), the requests come one at a time from this process.
// Run from the repository root: `npm run bench:scale:identity -- --size small|full [--explain]` (builds
// identity first). Prints a Markdown table; raw results go to tools/bench/results/scale-identity-<size>.json.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  MIRROR_RECORDS_BY_EXTERNAL_IDS,
  MIRROR_RECORDS_PAGE,
  UNREFERENCED_UNIFIED_USER_DELETE,
  VERIFIED_UNIFIED_USER,
} from '../../apps/identity/src/people/users/users.repository.sql.ts';
import { KEY_CREDENTIAL } from '../../apps/identity/src/access/callers/key-credentials.repository.sql.ts';
import { ACCESS_TOKEN_SUBJECT } from '../../apps/identity/src/access/callers/access-token-subject.repository.sql.ts';
import {
  generateKeys,
  generateMirrorUsers,
  generateRoleBindings,
  generatedKeySecret,
  mirrorRecord,
} from '../scale/identity-mirror-generator.mjs';
import {
  ROOT,
  createBenchDatabase,
  freePort,
  identityBenchEnv,
  importSignedInPartner,
  log,
  makeTempDir,
  request,
  requestJson,
  run,
  startServer,
  stopChild,
  waitForStatus,
  latencyStats,
} from './bench-kit.mjs';

const SIZES = {
  small: { fullUsers: 20_000, syncedBatches: 1, fullKeys: 2_000, fullBindings: 2_000, warmup: 5, samples: 30 },
  full: { fullUsers: 1_000_000, syncedBatches: 10, fullKeys: 100_000, fullBindings: 100_000, warmup: 50, samples: 500 },
};
const SAMPLE = { users: 1_000, keys: 100, bindings: 100 };
const BATCH = 1_000;
const PAGE = 50;
const SEED = 21;
const GOAL = 1.5;
const DOMAINS = { sample: 'sample.example', full: 'full.example' };
const DECISION_ACTION = 'split-project:read';

const IDENTITY_MAIN = path.join(ROOT, 'dist/apps/identity/main.js');
const EXPLAIN_FILES = {
  users: path.join(ROOT, 'apps/identity/src/people/users/users.repository.explain.md'),
  keys: path.join(ROOT, 'apps/identity/src/access/callers/key-credentials.repository.explain.md'),
  tokens: path.join(ROOT, 'apps/identity/src/access/callers/access-token-subject.repository.explain.md'),
};
const serviceToken = randomBytes(30).toString('base64url');
// Raised out of the way: the bench is one partner sending a million records and thousands of reads.
const RATE_LIMITS = ['APP_BURST', 'APP_PER_MINUTE', 'APP_WRITES_PER_MINUTE', 'PLATFORM_BURST', 'PLATFORM_PER_MINUTE'].map(
  (name) => `RATE_LIMIT_${name}`,
);

const { values: options } = parseArgs({
  options: { size: { type: 'string', default: 'full' }, explain: { type: 'boolean', default: false } },
});
const size = SIZES[options.size];
if (!size) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}, not ${options.size}`);
const tempDir = makeTempDir('scale-identity-bench-');

run(async () => {
  if (!existsSync(IDENTITY_MAIN)) throw new Error('identity is not built: run `npm run bench:scale:identity`');
  const databaseUrl = await createBenchDatabase(`scale_identity_bench_${randomBytes(6).toString('hex')}`);
  let identity = await startIdentity(databaseUrl, 'default leases', {}, await freePort());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { startSignedInPartner } = await importSignedInPartner();
    const organizations = {};
    for (const name of ['sample', 'full']) organizations[name] = await signedInOrganization(identity, name, startSignedInPartner);
    const sync = await seedMirrors(identity, client, organizations);
    await seedKeysAndBindings(client, organizations);
    await client.query('ANALYZE');
    await checkAnswers(identity, client, organizations);
    const rows = await measure(identity, organizations, [...USER_READS, ...DECISION_READS], 'default leases (250 ms)');
    const before = await withoutNewIndexes(client, organizations.full);
    if (options.explain) await explain(client, organizations);
    await stopChild(identity.child);
    identity = await startIdentity(databaseUrl, 'leases off', { KEY_LEASE_MS: '0', TOKEN_SUBJECT_LEASE_MS: '0' }, identity.port);
    rows.push(...(await measure(identity, organizations, DECISION_READS, 'leases off (0 ms)')));
    await Promise.all(Object.values(organizations).map((organization) => organization.partner.close()));
    report(rows, sync, organizations, before);
  } finally {
    await client.end();
  }
});

/** `port`: a restart keeps the port, and with it the issuer (its URL) the access tokens name. */
async function startIdentity(databaseUrl, label, leases, port) {
  // The access tokens, signed in at the start, outlive the seeding of the full organization.
  const extra = { ...Object.fromEntries(RATE_LIMITS.map((name) => [name, '100000'])), OIDC_ACCESS_TOKEN_TTL_SECONDS: '7200', ...leases };
  const env = identityBenchEnv({ port, dataDir: tempDir, databaseUrl, serviceToken, extra });
  log(`starting identity (${label}) on port ${port}`);
  const child = startServer('identity', [IDENTITY_MAIN], env);
  await waitForStatus('identity', port, '/readyz', 200);
  return { port, child, url: `http://127.0.0.1:${port}` };
}

/** A partner (organization, app key, app) with one person holding a role, signed in: the access token. */
async function signedInOrganization(identity, name, startSignedInPartner) {
  const platformKey = readFileSync(path.join(tempDir, 'bootstrap-platform-key'), 'utf8').trim();
  const partner = await startSignedInPartner({ url: identity.url, platformKey });
  const keyHeaders = { Authorization: `Bearer ${partner.appKey}` };
  const [app] = (await requestJson(identity.port, 'GET', '/v1/apps', keyHeaders)).items;
  const person = await partner.userWithRoles(['scenario-modeller']);
  const accessToken = await partner.signIn(person.email);
  log(`${name}: organization ${partner.organizationId}, registry ${app.registryId}, ${person.email} signed in`);
  return { name, partner, organizationId: partner.organizationId, registryId: app.registryId, keyHeaders, accessToken };
}

async function syncBatch(identity, organization, from) {
  const records = Array.from({ length: BATCH }, (_, i) => mirrorRecord(from + i, DOMAINS[organization.name]));
  const started = process.hrtime.bigint();
  const result = await requestJson(identity.port, 'POST', '/v1/sync', organization.keyHeaders, {
    registryId: organization.registryId,
    records,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!result.applied || result.counts.created !== BATCH)
    throw new Error(`sync of ${organization.name} from ${from}: ${JSON.stringify(result.counts)}`);
  return ms;
}

/** `batches` batches through the API from record `from`: records per second and batch latency. */
async function syncStretch(identity, organization, from, batches) {
  const latencies = [];
  for (let batch = 0; batch < batches; batch++) latencies.push(await syncBatch(identity, organization, from + batch * BATCH));
  const seconds = latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
  return { from, records: batches * BATCH, recordsPerSecond: (batches * BATCH) / seconds, batch: latencyStats(latencies) };
}

/** Sample: every user through the API. Full: a first and a last stretch through the API, the rest generated between them. */
async function seedMirrors(identity, client, organizations) {
  const sample = await syncStretch(identity, organizations.sample, 0, SAMPLE.users / BATCH);
  const full = organizations.full;
  const stretch = size.syncedBatches * BATCH;
  const intoEmpty = await syncStretch(identity, full, 0, size.syncedBatches);
  log(`full: first ${stretch} records synced, ${intoEmpty.recordsPerSecond.toFixed(0)} records/s`);
  const started = performance.now();
  await generateMirrorUsers(client, {
    seed: SEED,
    registryId: full.registryId,
    domain: DOMAINS.full,
    from: stretch,
    to: size.fullUsers - stretch,
    onProgress: (done) => {
      if (done % 200_000 === 0) log(`full: ${done} records generated`);
    },
  });
  const generatedSeconds = (performance.now() - started) / 1000;
  log(`full: ${size.fullUsers - 2 * stretch} records generated in ${generatedSeconds.toFixed(1)} s`);
  await client.query('ANALYZE unified_user');
  await client.query('ANALYZE user_mirror');
  const intoFull = await syncStretch(identity, full, size.fullUsers - stretch, size.syncedBatches);
  log(`full: last ${stretch} records synced, ${intoFull.recordsPerSecond.toFixed(0)} records/s`);
  return { sample, intoEmpty, intoFull, generatedSeconds };
}

async function seedKeysAndBindings(client, organizations) {
  for (const [name, keys, bindings] of [
    ['sample', SAMPLE.keys, SAMPLE.bindings],
    ['full', size.fullKeys, size.fullBindings],
  ]) {
    const organization = organizations[name];
    const started = performance.now();
    await generateKeys(client, { seed: SEED, organizationId: organization.organizationId, count: keys });
    const granted = await generateRoleBindings(client, {
      seed: SEED,
      organizationId: organization.organizationId,
      registryId: organization.registryId,
      count: bindings,
    });
    if (granted !== bindings) throw new Error(`${name}: ${granted} role bindings generated, expected ${bindings}`);
    organization.decisionKey = await generatedKeySecret(client, { seed: SEED, organizationId: organization.organizationId, n: keys - 1 });
    log(`${name}: ${keys} keys and ${bindings} role bindings generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** The record the reads look up (by email, by id): one generated in the middle of the full registry, the sample's middle one. */
function probeOf(organization) {
  const n = organization.name === 'full' ? Math.floor(size.fullUsers / 2) + 7 : SAMPLE.users / 2 + 7;
  return mirrorRecord(n, DOMAINS[organization.name]);
}

/** As identity encodes it (libs/server-kit encodeCursor): the list's name and the last key. */
function cursorOf(list, key) {
  return Buffer.from(JSON.stringify([list, key]), 'utf8').toString('base64url');
}

/** Ids, cursors and expected answers of the reads, each checked once before the timing starts. */
async function checkAnswers(identity, client, organizations) {
  for (const organization of Object.values(organizations)) {
    const { registryId } = organization;
    const [{ count }] = (await client.query('SELECT count(*)::int AS count FROM user_mirror WHERE registry_id = $1', [registryId])).rows;
    // Each registry holds its generated or synced users and the person who signs in.
    const expected = (organization.name === 'full' ? size.fullUsers : SAMPLE.users) + 1;
    if (count !== expected) throw new Error(`${organization.name}: ${count} mirror users, expected ${expected}`);
    const [beforeLast] = (
      await client.query('SELECT id FROM user_mirror WHERE registry_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [registryId, PAGE])
    ).rows;
    organization.lastPageCursor = cursorOf('users', beforeLast.id);
    const probe = probeOf(organization);
    const [probeRow] = (
      await client.query('SELECT id FROM user_mirror WHERE registry_id = $1 AND external_id = $2', [registryId, probe.externalId])
    ).rows;
    organization.probe = { ...probe, id: probeRow.id };
    organization.users = count;

    const first = await getJson(identity, USER_READS[0].path(organization), organization);
    const ids = first.items.map((item) => item.id);
    if (ids.length !== PAGE || !first.nextCursor || ids.some((id, i) => i > 0 && id <= ids[i - 1]))
      throw new Error(`${organization.name}: the first page is not ${PAGE} records in id order with a next cursor`);
    const last = await getJson(identity, USER_READS[1].path(organization), organization);
    if (last.items.length !== PAGE || last.nextCursor !== null)
      throw new Error(`${organization.name}: the last page is not the last ${PAGE} records`);
    const byEmail = await getJson(identity, USER_READS[2].path(organization), organization);
    if (byEmail.items.length !== 1 || byEmail.items[0].id !== probeRow.id || byEmail.items[0].email !== probe.email)
      throw new Error(`${organization.name}: the look-up by ${probe.email.toUpperCase()} answered ${JSON.stringify(byEmail.items)}`);
    const one = await getJson(identity, USER_READS[3].path(organization), organization);
    if (one.externalId !== probe.externalId || one.emailVerified !== probe.emailVerified)
      throw new Error(`${organization.name}: GET /v1/users/{id} answered ${JSON.stringify(one)}`);
    for (const read of DECISION_READS) {
      const answer = await decision(identity, read.credential(organization), organization);
      if (answer.decision !== 'allow' || answer.subject?.kind !== read.subjectKind)
        throw new Error(`${organization.name}, ${read.read}: ${JSON.stringify(answer)}`);
    }
    log(`${organization.name}: ${count} mirror users; pages, look-ups and decisions answer right`);
  }
}

async function getJson(identity, urlPath, organization) {
  const response = await request(identity.port, { path: urlPath, headers: organization.keyHeaders });
  if (response.status !== 200)
    throw new Error(`GET ${urlPath} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(response.body.toString('utf8'));
}

async function decision(identity, credential, organization) {
  const body = JSON.stringify({ credential, action: DECISION_ACTION, resource: { organizationId: organization.organizationId } });
  const response = await request(identity.port, {
    method: 'POST',
    path: '/v1/decisions',
    headers: { Authorization: `Bearer ${serviceToken}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    body,
  });
  if (response.status !== 200)
    throw new Error(`POST /v1/decisions answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(response.body.toString('utf8'));
}

const usersPath = (organization, query) => `/v1/users?registryId=${organization.registryId}&${query}`;
const USER_READS = [
  { area: 'users', read: `first page (${PAGE})`, path: (organization) => usersPath(organization, `limit=${PAGE}`) },
  {
    area: 'users',
    read: `last page (${PAGE}, by cursor)`,
    path: (organization) => usersPath(organization, `limit=${PAGE}&cursor=${organization.lastPageCursor}`),
  },
  {
    area: 'users',
    read: 'by email (`?email=`, other case)',
    path: (organization) => usersPath(organization, `email=${encodeURIComponent(organization.probe.email.toUpperCase())}`),
  },
  { area: 'users', read: 'one user (`/v1/users/{id}`)', path: (organization) => `/v1/users/${organization.probe.id}` },
];
const DECISION_READS = [
  {
    area: 'decisions',
    read: 'app key (one of the generated keys)',
    subjectKind: 'app_key',
    credential: (organization) => ({ kind: 'api_key', value: organization.decisionKey }),
  },
  {
    area: 'decisions',
    read: "user access token (a person with one of the organization's bindings)",
    subjectKind: 'human',
    credential: (organization) => ({ kind: 'access_token', value: organization.accessToken }),
  },
];

async function timed(identity, read, organization) {
  const started = process.hrtime.bigint();
  if (read.credential) {
    const answer = await decision(identity, read.credential(organization), organization);
    if (answer.decision !== 'allow') throw new Error(`${read.read}: ${JSON.stringify(answer)}`);
  } else {
    await getJson(identity, read.path(organization), organization);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Each read, sample and full alternating request by request, so both meet the same machine. */
async function measure(identity, organizations, reads, leases) {
  const rows = [];
  for (const read of reads) {
    const latencies = { sample: [], full: [] };
    for (let i = 0; i < size.warmup + size.samples; i++) {
      for (const name of ['sample', 'full']) {
        const ms = await timed(identity, read, organizations[name]);
        if (i >= size.warmup) latencies[name].push(ms);
      }
    }
    const sample = latencyStats(latencies.sample);
    const full = latencyStats(latencies.full);
    const label = read.area === 'decisions' ? `${read.read}, ${leases}` : read.read;
    rows.push({ area: read.area, read: label, sample, full, ratioP99: full.p99 / sample.p99 });
    log(`${read.area}, ${label}: p99 ${sample.p99.toFixed(2)} / ${full.p99.toFixed(2)} ms`);
  }
  return rows;
}

/** p50 of 5 runs of a statement, each inside a savepoint rolled back (so a delete finds its row every time). */
async function timeStatement(client, sql, params) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    await client.query('SAVEPOINT timed');
    const started = process.hrtime.bigint();
    await client.query(sql, params);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    await client.query('ROLLBACK TO SAVEPOINT timed');
  }
  return latencyStats(times).p50;
}

const ORPHAN_UID = '00000000-0000-7000-8000-000000000021';
const INSERT_ORPHAN = `INSERT INTO unified_user (uid, email, email_scope) VALUES ('${ORPHAN_UID}', 'orphan@full.example', 'unscoped:bench')`;

/**
 * For the record: what the two statements migration 1763900000900 indexes cost at full size without
 * those indexes (dropped in a transaction that is rolled back) and with them; p50 of 5. The delete is
 * of a unified user nothing refers to, so that every one of its checks runs.
 */
async function withoutNewIndexes(client, full) {
  const measureBoth = async () => {
    await client.query(INSERT_ORPHAN);
    return {
      verifiedUnifiedUserMs: await timeStatement(client, VERIFIED_UNIFIED_USER, [full.probe.email.toUpperCase(), full.organizationId]),
      unreferencedDeleteMs: await timeStatement(client, UNREFERENCED_UNIFIED_USER_DELETE, [ORPHAN_UID]),
    };
  };
  await client.query('BEGIN');
  const withIndexes = await measureBoth();
  await client.query('ROLLBACK');
  await client.query('BEGIN');
  await client.query('DROP INDEX unified_user_vouched_email');
  await client.query('DROP INDEX unified_user_merged_into');
  const withoutIndexes = await measureBoth();
  await client.query('ROLLBACK');
  log(`without the new indexes: ${JSON.stringify(withoutIndexes)}; with them: ${JSON.stringify(withIndexes)}`);
  return { withIndexes, withoutIndexes };
}

/** The plan, with a long array literal (a sync batch's 1 000 external ids) cut to its ends. */
async function plan(client, sql, params) {
  return (await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ${sql}`, params)).rows
    .map((row) => row['QUERY PLAN'])
    .join('\n')
    .replace(/'\{([^,}]+),([^,}]+),[^}]{200,},([^,}]+)\}'/g, "'{$1,$2,…,$3}'");
}

/** The hot identity queries as their repositories send them (the same text, imported), at full size, with their plans. */
async function explain(client, organizations) {
  const full = organizations.full;
  const externalIds = Array.from({ length: BATCH }, (_, i) => mirrorRecord(size.fullUsers - BATCH + i, DOMAINS.full).externalId);
  const [afterId] = JSON.parse(Buffer.from(full.lastPageCursor, 'base64url').toString('utf8')).slice(1);
  const claims = JSON.parse(Buffer.from(full.accessToken.split('.')[1], 'base64url').toString('utf8'));
  const prefix = /^stdreg_app_([a-z2-7]{10})_/.exec(full.decisionKey)[1];
  const files = {
    users: [
      {
        name: 'MIRROR_RECORDS_PAGE, first page',
        why: 'GET /v1/users: the first page of a registry.',
        sql: MIRROR_RECORDS_PAGE,
        params: [full.registryId, null, null, PAGE + 1],
      },
      {
        name: 'MIRROR_RECORDS_PAGE, last page',
        why: 'GET /v1/users with a cursor: the last page of the registry.',
        sql: MIRROR_RECORDS_PAGE,
        params: [full.registryId, null, afterId, PAGE + 1],
      },
      {
        name: 'MIRROR_RECORDS_PAGE, by email',
        why: 'GET /v1/users?email=: a partner looks a person up (case-insensitive).',
        sql: MIRROR_RECORDS_PAGE,
        params: [full.registryId, full.probe.email.toUpperCase(), null, PAGE + 1],
      },
      {
        name: 'MIRROR_RECORDS_BY_EXTERNAL_IDS',
        why: 'Every sync batch: the current records of its 1 000 external ids, locked.',
        sql: MIRROR_RECORDS_BY_EXTERNAL_IDS,
        params: [full.registryId, externalIds],
      },
      {
        name: 'VERIFIED_UNIFIED_USER',
        why: 'Every created record with a verified email: the unified user its organization vouched for (merged users included).',
        sql: VERIFIED_UNIFIED_USER,
        params: [full.probe.email.toUpperCase(), full.organizationId],
      },
      {
        name: 'UNREFERENCED_UNIFIED_USER_DELETE',
        why: 'Every deleted record: its unified user goes when nothing refers to it (here one that nothing refers to, in a transaction rolled back).',
        sql: UNREFERENCED_UNIFIED_USER_DELETE,
        params: [ORPHAN_UID],
        setUp: INSERT_ORPHAN,
      },
    ],
    keys: [
      {
        name: 'KEY_CREDENTIAL',
        why: 'Every keyed request, and every decision on a key whose lease is not live.',
        sql: KEY_CREDENTIAL,
        params: [prefix],
      },
    ],
    tokens: [
      {
        name: 'ACCESS_TOKEN_SUBJECT',
        why: "Every decision on a user access token whose lease is not live: client, grant, revocation and the person's role bindings.",
        sql: ACCESS_TOKEN_SUBJECT,
        params: [claims.sub, claims.client_id, claims.gid, claims.jti, null],
      },
    ],
  };
  const repositories = {
    users: 'users.repository.ts',
    keys: 'key-credentials.repository.ts',
    tokens: 'access-token-subject.repository.ts',
  };
  for (const [file, queries] of Object.entries(files)) {
    const sections = [];
    for (const query of queries) {
      await client.query('BEGIN');
      if (query.setUp) await client.query(query.setUp);
      const text = await plan(client, query.sql, query.params);
      await client.query('ROLLBACK');
      sections.push(`## ${query.name}\n\n${query.why}\n\n\`\`\`sql\n${query.sql.trim()}\n\`\`\`\n\n\`\`\`\n${text}\n\`\`\`\n`);
    }
    writeFileSync(
      EXPLAIN_FILES[file],
      `# Query plans of ${repositories[file]} at full size\n\n` +
        `Generated by \`npm run bench:scale:identity -- --size full --explain\` (tools/bench/scale-identity.bench.mjs) on PostgreSQL, ` +
        `with one registry of ${full.users.toLocaleString('en')} mirror users (and as many unified users), ${size.fullKeys.toLocaleString('en')} app keys ` +
        `and ${size.fullBindings.toLocaleString('en')} role bindings in its organization, next to a sample organization. The SQL is the ` +
        `repository's own text (imported from the *.repository.sql.ts beside it), its parameters bound as the repository binds them. ` +
        `A plan that turns into a sequential scan, or a scan whose actual rows grow with the data, shows here in review.\n\n${sections.join('\n')}`,
    );
    log(`wrote ${path.relative(ROOT, EXPLAIN_FILES[file])}`);
  }
}

function report(rows, sync, organizations, before) {
  const fmt = (ms) => ms.toFixed(2);
  const syncRow = (label, stretch) =>
    `| ${label} | ${stretch.records.toLocaleString('en')} | ${stretch.recordsPerSecond.toFixed(0)} | ${stretch.batch.p50.toFixed(0)} | ${stretch.batch.p99.toFixed(0)} |`;
  const lines = [
    `--size ${options.size}: sample organization ${organizations.sample.users.toLocaleString('en')} mirror users, ${SAMPLE.keys} keys, ${SAMPLE.bindings} role bindings; full organization ${organizations.full.users.toLocaleString('en')} mirror users (${(size.fullUsers - 2 * size.syncedBatches * BATCH).toLocaleString('en')} generated in ${sync.generatedSeconds.toFixed(0)} s), ${size.fullKeys.toLocaleString('en')} keys, ${size.fullBindings.toLocaleString('en')} role bindings; ${size.samples} requests each, alternating.`,
    '',
    '| POST /v1/sync, batches of 1 000 created records | records | records/s | batch p50 ms | batch p99 ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    syncRow('sample registry, from empty', sync.sample),
    syncRow('full registry, its first records (from empty)', sync.intoEmpty),
    syncRow(`full registry, its last records (from ${(size.fullUsers - size.syncedBatches * BATCH).toLocaleString('en')})`, sync.intoFull),
    '',
    '| area | read | sample p50 ms | sample p99 ms | full p50 ms | full p99 ms | full/sample p99 | goal |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (row) =>
        `| ${row.area} | ${row.read} | ${fmt(row.sample.p50)} | ${fmt(row.sample.p99)} | ${fmt(row.full.p50)} | ${fmt(row.full.p99)} | ${row.ratioP99.toFixed(2)} | ${row.ratioP99 <= GOAL ? 'met' : 'not met'} (≤ ${GOAL}) |`,
    ),
    '',
    `For the record, at this size, p50 of 5: the verified-email look-up of a created record ${fmt(before.withIndexes.verifiedUnifiedUserMs)} ms with migration 1763900000900's index, ${fmt(before.withoutIndexes.verifiedUnifiedUserMs)} ms without; the delete of a deleted record's unreferenced unified user ${fmt(before.withIndexes.unreferencedDeleteMs)} ms with, ${fmt(before.withoutIndexes.unreferencedDeleteMs)} ms without.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const organizationFigures = Object.fromEntries(
    Object.entries(organizations).map(([name, organization]) => [name, { users: organization.users, registryId: organization.registryId }]),
  );
  writeFileSync(
    path.join(import.meta.dirname, `results/scale-identity-${options.size}.json`),
    `${JSON.stringify({ size: options.size, at: new Date().toISOString(), organizations: organizationFigures, sync, rows, before }, null, 2)}\n`,
  );
}
