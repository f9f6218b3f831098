import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const ORG_EMPTY = randomUUID();
const ALICE = 'LEI-ALICE-0002';
const identity = new FakeIdentity();
let api: RunningStandardsApi;

const as = (org: string) => ({ Authorization: `Bearer member-of:${org}`, 'X-Organization-Id': org });
const get = (path: string, org = ORG_A) => request(api.server).get(`/api/v2${path}`).set(as(org));

interface Run {
  id: string;
  org: string;
  projectId: string;
  periodId: string;
  reverses?: string;
}
interface Entry {
  id: string;
  org: string;
  legalEntityId: string;
  runId: string;
  currency: string;
  amount: string;
  postedAt: string;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const fixture = { projectA: '', projectB: '', runsA: [] as Run[], runB: {} as Run, aliceA: [] as Entry[] };

async function createProject(org: string): Promise<string> {
  const body = {
    name: 'Studio revenue share',
    currency: 'EUR',
    templateVersion: '2.0',
    scenario: { name: 'Baseline', content: sampleScenario() },
  };
  return (await request(api.server).post('/api/v2/split-projects').set(as(org)).send(body).expect(201)).body.project.id;
}

async function insertRun(run: Run): Promise<void> {
  await api.dataSource.query(
    `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest, reverses_run_id, posted_by, posted_at,
       period_end, rules_digest, tiers)
     VALUES ($1, $2, $3, $4, 1, '10000.00', '2500.01', '7499.99', 'EUR', $5, 'sha256:abc', $6, 'human:uid-poster', '2026-02-01T09:00:00Z', '2026-01-31T23:59:59Z', 'sha256:rules', '[]')`,
    [
      run.id,
      run.org,
      run.projectId,
      run.periodId,
      JSON.stringify([
        { participantId: 'alice', amount: '4499.99' },
        { participantId: 'bob', amount: '3000.00' },
      ]),
      run.reverses ?? null,
    ],
  );
}

async function insertEntry(entry: Entry): Promise<void> {
  await api.dataSource.query(
    `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
     VALUES ($1, $2, $3, $4, 'alice', $5, $6, $7)`,
    [entry.id, entry.org, entry.legalEntityId, entry.runId, entry.currency, entry.amount, entry.postedAt],
  );
}

/** Every page of a ledger, following nextCursor. */
async function walkLedger(query: Record<string, string | number>, org = ORG_A) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const response: request.Response = await get(`/equity-ledgers/${ALICE}`, org)
      .query({ ...query, ...(cursor ? { cursor } : {}) })
      .expect(200);
    pages.push(response.body);
    cursor = response.body.nextCursor;
  } while (cursor !== null);
  return pages;
}

const summary = (entries: { amount: string; currency: string; balance: string }[]) =>
  entries.map((e) => `${e.amount} ${e.currency} → ${e.balance}`);

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_TIMEOUT_MS: '300',
    AUTHZ_READ_CACHE_MS: '0',
  });
  fixture.projectA = await createProject(ORG_A);
  fixture.projectB = await createProject(ORG_B);
  const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()].sort();
  fixture.runsA = [
    { id: first!, org: ORG_A, projectId: fixture.projectA, periodId: '2026-01' },
    { id: second!, org: ORG_A, projectId: fixture.projectA, periodId: '2026-02' },
  ];
  fixture.runsA.push({ id: third!, org: ORG_A, projectId: fixture.projectA, periodId: '2026-01', reverses: first! });
  fixture.runB = { id: randomUUID(), org: ORG_B, projectId: fixture.projectB, periodId: '2026-01' };
  for (const run of [...fixture.runsA, fixture.runB]) await insertRun(run);

  const [tieLow, tieHigh] = [randomUUID(), randomUUID()].sort();
  const run = first!;
  fixture.aliceA = [
    {
      id: randomUUID(),
      org: ORG_A,
      legalEntityId: ALICE,
      runId: run,
      currency: 'EUR',
      amount: '100.00',
      postedAt: '2026-01-31T10:00:00.000001Z',
    },
    {
      id: randomUUID(),
      org: ORG_A,
      legalEntityId: ALICE,
      runId: run,
      currency: 'JPY',
      amount: '1500',
      postedAt: '2026-01-31T10:00:00.000002Z',
    },
    { id: tieLow!, org: ORG_A, legalEntityId: ALICE, runId: run, currency: 'EUR', amount: '-12.50', postedAt: '2026-02-28T10:00:00Z' },
    { id: tieHigh!, org: ORG_A, legalEntityId: ALICE, runId: run, currency: 'EUR', amount: '0.01', postedAt: '2026-02-28T10:00:00Z' },
    { id: randomUUID(), org: ORG_A, legalEntityId: ALICE, runId: run, currency: 'JPY', amount: '-200', postedAt: '2026-03-31T10:00:00Z' },
    // Beyond 2^53 minor units: a floating-point sum would lose the last digits.
    {
      id: randomUUID(),
      org: ORG_A,
      legalEntityId: ALICE,
      runId: run,
      currency: 'EUR',
      amount: '90071992547409.93',
      postedAt: '2026-04-30T10:00:00+02:00',
    },
  ];
  const others: Entry[] = [
    {
      id: randomUUID(),
      org: ORG_B,
      legalEntityId: ALICE,
      runId: fixture.runB.id,
      currency: 'EUR',
      amount: '5.00',
      postedAt: '2026-01-15T00:00:00Z',
    },
    {
      id: randomUUID(),
      org: ORG_A,
      legalEntityId: 'LEI-BOB-0003',
      runId: run,
      currency: 'JPY',
      amount: '700',
      postedAt: '2026-02-01T00:00:00Z',
    },
  ];
  // Inserted in posting order, as postings append them (the database refuses an entry before its
  // ledger's latest one, since each stores its running balance); the tie is ordered by id.
  for (const entry of [...fixture.aliceA, ...others]) await insertEntry(entry);
});
afterAll(async () => {
  await api.close();
  await identity.stop();
});
beforeEach(() => {
  identity.mode = 'decide';
});

const FULL_LEDGER = [
  '100.00 EUR → 100.00',
  '1500 JPY → 1500',
  '-12.50 EUR → 87.50',
  '0.01 EUR → 87.51',
  '-200 JPY → 1300',
  '90071992547409.93 EUR → 90071992547497.44',
];

describe('settlement runs', () => {
  it('reads a settlement run of the organization', async () => {
    const [run] = fixture.runsA;
    const response = await get(`/settlement-runs/${run!.id}`).expect(200);
    expect(response.body).toEqual({
      id: run!.id,
      organizationId: ORG_A,
      projectId: fixture.projectA,
      periodId: '2026-01',
      ruleVersion: 1,
      gross: '10000.00',
      costs: '2500.01',
      distributable: '7499.99',
      currency: 'EUR',
      allocations: [
        { participantId: 'alice', amount: '4499.99' },
        { participantId: 'bob', amount: '3000.00' },
      ],
      digest: 'sha256:abc',
      reversesRunId: null,
      postedBy: 'human:uid-poster',
      postedAt: '2026-02-01T09:00:00.000Z',
      periodEnd: '2026-01-31T23:59:59.000Z',
      rulesDigest: 'sha256:rules',
      tiers: [],
      correctedByRunId: fixture.runsA[2]!.id,
    });
    expect((await get(`/settlement-runs/${fixture.runsA[2]!.id}`).expect(200)).body.reversesRunId).toBe(run!.id);
    expect(identity.questions.at(-1)?.action).toBe('settlement-run:read');
  });

  it("answers 404 for another organization's run and for an unknown one, and 400 for a malformed id", async () => {
    const response = await get(`/settlement-runs/${fixture.runB.id}`, ORG_A).expect(404);
    expect(response.body.code).toBe('not_found');
    await get(`/settlement-runs/${fixture.runsA[0]!.id}`, ORG_B).expect(404);
    await get(`/settlement-runs/${randomUUID()}`).expect(404);
    await get('/settlement-runs/not-a-uuid').expect(400);
  });

  it("lists a project's runs in keyset pages in posting order (id breaks ties), and only the organization's own", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await get(`/split-projects/${fixture.projectA}/settlement-runs`)
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((run: { id: string }) => run.id));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([...fixture.runsA].sort(byId).map((run) => run.id));
    const b = await get(`/split-projects/${fixture.projectB}/settlement-runs`, ORG_B).expect(200);
    expect(b.body).toEqual({ items: [expect.objectContaining({ id: fixture.runB.id, organizationId: ORG_B })], nextCursor: null });
  });

  it('orders runs by posting time, not by id', async () => {
    const projectId = await createProject(ORG_A);
    const [smallerId, largerId] = [randomUUID(), randomUUID()].sort();
    const insertAt = (id: string, periodId: string, postedAt: string) =>
      api.dataSource.query(
        `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest, posted_by, posted_at,
         period_end, rules_digest, tiers)
       VALUES ($1, $2, $3, $4, 1, '1.00', '0.00', '1.00', 'EUR', '[]', 'sha256:abc', 'human:uid-poster', $5, '2026-01-31T23:59:59Z', 'sha256:rules', '[]')`,
        [id, ORG_A, projectId, periodId, postedAt],
      );
    await insertAt(largerId!, '2026-01', '2026-02-01T09:00:00.000001Z');
    await insertAt(smallerId!, '2026-02', '2026-02-01T09:00:00.000002Z');
    const first = await get(`/split-projects/${projectId}/settlement-runs`).query({ limit: 1 }).expect(200);
    expect(first.body.items.map((run: { id: string }) => run.id)).toEqual([largerId]);
    const second = await get(`/split-projects/${projectId}/settlement-runs`).query({ limit: 1, cursor: first.body.nextCursor }).expect(200);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: smallerId })], nextCursor: null });
  });

  it("answers 404 for an unknown project's or another organization's project's runs, and 400 for a forged cursor", async () => {
    await get(`/split-projects/${randomUUID()}/settlement-runs`).expect(404);
    await get(`/split-projects/${fixture.projectB}/settlement-runs`, ORG_A).expect(404);
    const forged = Buffer.from(JSON.stringify([`settlement-runs:${fixture.projectA}`, "x' OR 1=1"])).toString('base64url');
    const response = await get(`/split-projects/${fixture.projectA}/settlement-runs`).query({ cursor: forged }).expect(400);
    expect(response.body.errors[0].field).toBe('cursor');
  });

  it("refuses a cursor naming another organization's run exactly as one naming no run: a list cannot tell that a run exists", async () => {
    const projectId = await createProject(ORG_B);
    const later = { id: randomUUID(), org: ORG_B, projectId, periodId: '2026-01' };
    await api.dataSource.query(
      `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest, posted_by, posted_at,
         period_end, rules_digest, tiers)
       VALUES ($1, $2, $3, $4, 1, '1.00', '0.00', '1.00', 'EUR', '[]', 'sha256:abc', 'human:uid-poster', '2026-03-01T09:00:00Z', '2026-02-28T23:59:59Z', 'sha256:rules', '[]')`,
      [later.id, later.org, later.projectId, later.periodId],
    );
    const list = `/split-projects/${projectId}/settlement-runs`;
    const cursorNaming = (runId: string) => Buffer.from(JSON.stringify([`settlement-runs:${projectId}`, runId])).toString('base64url');
    const answers = [];
    // Organization A's run (posted before B's), a run of another project of B's own, and a run nobody posted.
    for (const runId of [fixture.runsA[0]!.id, fixture.runB.id, randomUUID()]) {
      const response = await get(list, ORG_B).query({ cursor: cursorNaming(runId) });
      answers.push({ status: response.status, code: response.body.code, errors: response.body.errors });
    }
    expect(answers).toEqual(
      Array.from({ length: 3 }, () => ({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'cursor' })] })),
    );
    const own = await get(list, ORG_B).expect(200);
    expect(own.body.items.map((run: { id: string }) => run.id)).toEqual([later.id]);
  });
});

describe('equity ledgers', () => {
  it('lists a legal entity’s entries oldest first with an exact running balance per currency', async () => {
    const response = await get(`/equity-ledgers/${ALICE}`).expect(200);
    expect(response.body.legalEntityId).toBe(ALICE);
    expect(response.body.entries.map((e: { id: string }) => e.id)).toEqual(fixture.aliceA.map((e) => e.id));
    expect(summary(response.body.entries)).toEqual(FULL_LEDGER);
    expect(response.body.entries[0]).toEqual({
      id: fixture.aliceA[0]!.id,
      settlementRunId: fixture.runsA[0]!.id,
      participantId: 'alice',
      currency: 'EUR',
      amount: '100.00',
      balance: '100.00',
      postedAt: '2026-01-31T10:00:00.000Z',
      kind: 'allocation',
      reversesEntryId: null,
    });
    expect(response.body.balances).toEqual([
      { currency: 'EUR', balance: '90071992547497.44' },
      { currency: 'JPY', balance: '1300' },
    ]);
    expect(response.body.nextCursor).toBeNull();
    expect(identity.questions.at(-1)).toEqual({ action: 'equity-ledger:read', resource: { organizationId: ORG_A } });
  });

  it('keeps running balances right across pages: each page starts from every earlier entry', async () => {
    for (const limit of [1, 2, 4]) {
      const pages = await walkLedger({ limit });
      expect(pages).toHaveLength(Math.ceil(FULL_LEDGER.length / limit));
      expect(summary(pages.flatMap((page) => page.entries))).toEqual(FULL_LEDGER);
      expect(pages[0].balances).toEqual(limit === 1 ? [{ currency: 'EUR', balance: '100.00' }] : expect.any(Array));
      expect(pages.at(-1).balances).toEqual([
        { currency: 'EUR', balance: '90071992547497.44' },
        { currency: 'JPY', balance: '1300' },
      ]);
    }
    const [, second] = await walkLedger({ limit: 2 });
    expect(second.balances).toEqual([
      { currency: 'EUR', balance: '87.51' },
      { currency: 'JPY', balance: '1500' },
    ]);
  });

  it('filters by from and to inclusively, a microsecond given as asked, with balances that count the entries before from', async () => {
    const window = await get(`/equity-ledgers/${ALICE}`).query({ from: '2026-02-28T10:00:00Z', to: '2026-03-31T10:00:00Z' }).expect(200);
    expect(summary(window.body.entries)).toEqual(FULL_LEDGER.slice(2, 5));
    expect(window.body.balances).toEqual([
      { currency: 'EUR', balance: '87.51' },
      { currency: 'JPY', balance: '1300' },
    ]);
    const edge = await get(`/equity-ledgers/${ALICE}`)
      .query({ from: '2026-01-31T10:00:00.000002Z', to: '2026-01-31T11:00:00.000002+01:00' })
      .expect(200);
    expect(summary(edge.body.entries)).toEqual(['1500 JPY → 1500']);
    expect(edge.body.balances).toEqual([
      { currency: 'EUR', balance: '100.00' },
      { currency: 'JPY', balance: '1500' },
    ]);
    const paged = await walkLedger({ limit: 1, from: '2026-02-28T10:00:00Z' });
    expect(summary(paged.flatMap((page) => page.entries))).toEqual(FULL_LEDGER.slice(2));
  });

  it('counts every entry before the window when a cursor and a later `from` are given together', async () => {
    // The cursor names the first entry; `from` starts the window at the third: the second (1500 JPY) is before the window too.
    const [first] = await walkLedger({ limit: 1 });
    const window = await get(`/equity-ledgers/${ALICE}`).query({ cursor: first.nextCursor, from: '2026-02-28T10:00:00Z' }).expect(200);
    expect(summary(window.body.entries)).toEqual(FULL_LEDGER.slice(2));
    expect(window.body.balances).toEqual([
      { currency: 'EUR', balance: '90071992547497.44' },
      { currency: 'JPY', balance: '1300' },
    ]);
  });

  it('takes an entry shown at `to` into the window: times are shown to the millisecond, entries are posted to the microsecond', async () => {
    const all = (await get(`/equity-ledgers/${ALICE}`).expect(200)).body.entries as { postedAt: string }[];
    expect(all.slice(0, 2).map((entry) => entry.postedAt)).toEqual(['2026-01-31T10:00:00.000Z', '2026-01-31T10:00:00.000Z']);
    for (const [index, entry] of all.entries()) {
      const upTo = await get(`/equity-ledgers/${ALICE}`).query({ to: entry.postedAt }).expect(200);
      expect(summary(upTo.body.entries)).toEqual(FULL_LEDGER.filter((_, shown) => all[shown]!.postedAt <= entry.postedAt));
      const at = await get(`/equity-ledgers/${ALICE}`).query({ from: entry.postedAt, to: entry.postedAt }).expect(200);
      expect(summary(at.body.entries)).toContain(FULL_LEDGER[index]);
    }
    const before = await get(`/equity-ledgers/${ALICE}`).query({ to: '2026-01-31T09:59:59.999Z' }).expect(200);
    expect(before.body.entries).toEqual([]);
  });

  it('lists the balances by currency code, whatever currency the ledger or the page began with', async () => {
    const carol = 'LEI-CAROL-0004';
    const run = fixture.runsA[0]!.id;
    const entries = [
      ['JPY', '300', '2026-01-10T00:00:00Z'],
      ['USD', '2.50', '2026-01-11T00:00:00Z'],
      ['EUR', '1.25', '2026-01-12T00:00:00Z'],
    ] as const;
    for (const [currency, amount, postedAt] of entries) {
      await insertEntry({ id: randomUUID(), org: ORG_A, legalEntityId: carol, runId: run, currency, amount, postedAt });
    }
    const whole = await get(`/equity-ledgers/${carol}`).expect(200);
    expect(whole.body.balances).toEqual([
      { currency: 'EUR', balance: '1.25' },
      { currency: 'JPY', balance: '300' },
      { currency: 'USD', balance: '2.50' },
    ]);
    const first = await get(`/equity-ledgers/${carol}`).query({ limit: 1 }).expect(200);
    expect(first.body.balances).toEqual([{ currency: 'JPY', balance: '300' }]);
    const rest = await get(`/equity-ledgers/${carol}`).query({ cursor: first.body.nextCursor }).expect(200);
    expect(rest.body.balances).toEqual(whole.body.balances);
  });

  it('shows an organization only its own entries, and an organization with none an empty ledger, not a 404', async () => {
    const b = await get(`/equity-ledgers/${ALICE}`, ORG_B).expect(200);
    expect(summary(b.body.entries)).toEqual(['5.00 EUR → 5.00']);
    expect(b.body.balances).toEqual([{ currency: 'EUR', balance: '5.00' }]);
    const empty = await get(`/equity-ledgers/${ALICE}`, ORG_EMPTY).expect(200);
    expect(empty.body).toEqual({ legalEntityId: ALICE, entries: [], balances: [], nextCursor: null });
    const bob = await get('/equity-ledgers/LEI-BOB-0003').expect(200);
    expect(summary(bob.body.entries)).toEqual(['700 JPY → 700']);
  });

  it('shows on a deep page of a long ledger the exact sums of every entry up to each of its entries', async () => {
    const org = randomUUID();
    const projectId = await createProject(org);
    const runId = randomUUID();
    await insertRun({ id: runId, org, projectId, periodId: '2026-01' });
    // 300 entries in two currencies, amounts of both signs, one per second: the ledger the pages walk.
    await api.dataSource.query(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'alice', CASE WHEN i % 3 = 0 THEN 'JPY' ELSE 'EUR' END,
              CASE WHEN i % 3 = 0 THEN ((i * 7919) % 2001 - 1000)::text ELSE to_char(((i * 104729) % 200001 - 100000) / 100.0, 'FM9999990.00') END,
              '2026-01-01T00:00:00Z'::timestamptz + i * interval '1 second'
         FROM generate_series(1, 300) AS i ORDER BY i`,
      [org, ALICE, runId],
    );
    let page = await get(`/equity-ledgers/${ALICE}`, org).query({ limit: 50 }).expect(200);
    while (page.body.nextCursor !== null) {
      page = await get(`/equity-ledgers/${ALICE}`, org).query({ limit: 50, cursor: page.body.nextCursor }).expect(200);
    }
    expect(page.body.entries).toHaveLength(50);
    for (const entry of page.body.entries as { id: string; currency: string; balance: string }[]) {
      const [{ total }] = await api.dataSource.query(
        `SELECT sum(amount::numeric)::text AS total FROM equity_ledger_entry
          WHERE organization_id = $1 AND legal_entity_id = $2 AND currency = $3
            AND (posted_at, id) <= (SELECT posted_at, id FROM equity_ledger_entry WHERE id = $4)`,
        [org, ALICE, entry.currency, entry.id],
      );
      expect(entry.balance).toBe(total);
    }
    const totals: { currency: string; total: string }[] = await api.dataSource.query(
      `SELECT currency, sum(amount::numeric)::text AS total FROM equity_ledger_entry
        WHERE organization_id = $1 AND legal_entity_id = $2 GROUP BY currency ORDER BY currency`,
      [org, ALICE],
    );
    expect(page.body.balances).toEqual(totals.map(({ currency, total }) => ({ currency, balance: total })));
  });

  it('refuses an entry posted before the latest entry of its ledger, whose stored balances it would make wrong', async () => {
    const [latest] = [...fixture.aliceA].sort((a, b) => Date.parse(b.postedAt) - Date.parse(a.postedAt));
    await expect(insertEntry({ ...latest!, id: randomUUID(), postedAt: '2026-01-01T00:00:00Z' })).rejects.toThrow(
      /appended in posting order/,
    );
    expect(summary((await get(`/equity-ledgers/${ALICE}`).expect(200)).body.entries)).toEqual(FULL_LEDGER);
  });

  it('refuses timestamps without a time zone, an empty range, and cursors of another ledger with 400', async () => {
    const dateOnly = await get(`/equity-ledgers/${ALICE}`).query({ from: '2026-01-01' }).expect(400);
    expect(dateOnly.body.errors[0]).toEqual({ field: 'from', message: expect.stringContaining('ISO 8601 timestamp with a time zone') });
    const noZone = await get(`/equity-ledgers/${ALICE}`).query({ to: '2026-01-01T00:00:00' }).expect(400);
    expect(noZone.body.errors[0].field).toBe('to');
    const nanoseconds = await get(`/equity-ledgers/${ALICE}`).query({ from: '2026-01-01T00:00:00.1234567Z' }).expect(400);
    expect(nanoseconds.body.errors[0].field).toBe('from');
    const reversed = await get(`/equity-ledgers/${ALICE}`).query({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }).expect(400);
    expect(reversed.body.errors[0].field).toBe('to');
    const aliceCursor = (await get(`/equity-ledgers/${ALICE}`).query({ limit: 1 }).expect(200)).body.nextCursor as string;
    await get(`/equity-ledgers/${ALICE}`).query({ cursor: 'garbage!' }).expect(400);
    await get('/equity-ledgers/LEI-BOB-0003').query({ cursor: aliceCursor }).expect(400);
    const otherOrg = await get(`/equity-ledgers/${ALICE}`, ORG_B).query({ cursor: aliceCursor }).expect(400);
    expect(otherOrg.body.errors[0].field).toBe('cursor');
  });
});

describe('posted facts are append-only in the database', () => {
  it.each(['settlement_run', 'equity_ledger_entry'])('refuses UPDATE, DELETE and TRUNCATE on %s', async (table) => {
    const before = (await api.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
    await expect(api.dataSource.query(`UPDATE ${table} SET currency = 'USD'`)).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query(`DELETE FROM ${table}`)).rejects.toThrow(/append-only/);
    await expect(api.dataSource.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(/append-only/);
    expect((await api.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n).toBe(before);
  });
});

describe('authorization', () => {
  it('answers 403 when identity denies and 503 when it cannot be asked, for every read', async () => {
    for (const [mode, status] of [
      ['deny', 403],
      ['error-500', 503],
    ] as const) {
      identity.mode = mode;
      await get(`/settlement-runs/${fixture.runsA[0]!.id}`).expect(status);
      await get(`/split-projects/${fixture.projectA}/settlement-runs`).expect(status);
      await get(`/equity-ledgers/${ALICE}`).expect(status);
    }
  });
});

describe('the OpenAPI description', () => {
  it('documents the comparison, settlement-run and equity-ledger routes', async () => {
    const { body } = await request(api.server).get('/api/v2/openapi.json').expect(200);
    expect(body.paths['/api/v2/split-projects/{id}/scenario-comparisons']?.post).toBeDefined();
    for (const path of ['/settlement-runs/{id}', '/split-projects/{id}/settlement-runs', '/equity-ledgers/{legalEntityId}']) {
      expect(body.paths[`/api/v2${path}`]?.get).toBeDefined();
    }
    expect(body.components.schemas.EquityLedgerPageDto.required).toEqual(
      expect.arrayContaining(['legalEntityId', 'entries', 'balances', 'nextCursor']),
    );
  });
});
