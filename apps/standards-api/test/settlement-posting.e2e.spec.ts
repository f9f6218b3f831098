import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { formatAmount, formatSettlement, parseAmount, settlePeriod, type ScenarioContent } from '@stdreg/split-engine';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';
import { UNAVAILABLE_MODES, withReplicaClockSkewed } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';

const ORG = randomUUID();
const OTHER_ORG = randomUUID();
let running: ProtectedApi;

const approver = (name?: string, org = ORG) => credentialHeaders(name ? `approver-${name}-of:${org}` : `approver-of:${org}`, org);
const server = () => running.api.server;
const sql = (text: string, parameters: unknown[] = []) => running.api.dataSource.query(text, parameters);
const count = async (from: string, parameters: unknown[] = []) =>
  (await sql(`SELECT count(*)::int AS n FROM ${from}`, parameters))[0].n as number;
const written = async () => ({
  runs: await count('settlement_run'),
  entries: await count('equity_ledger_entry'),
  audit: await count("write_audit WHERE outcome = 'success'"),
  challenges: await count('confirmation_challenge'),
  spentTokens: await count('confirmation_challenge WHERE used_at IS NOT NULL'),
});

interface Actuals {
  periodId: string;
  revenue: string;
  costs: string;
  periodEnd?: string;
  correctsRunId?: string;
}
const postCall = (projectId: string, body: Record<string, unknown>, as = approver()) =>
  request(server()).post(`/api/v2/split-projects/${projectId}/settlement-runs`).set(as).send(body);
const withEnd = (actuals: Actuals) => ({ periodEnd: new Date().toISOString(), ...actuals });

async function challenge(projectId: string, actuals: Actuals, as = approver()) {
  const body = withEnd(actuals);
  const response = await postCall(projectId, body, as).expect(428);
  return { body, token: response.body.confirmationToken as string, challenge: response.body.challenge };
}

async function post(projectId: string, actuals: Actuals, as = approver()) {
  const { body, token } = await challenge(projectId, actuals, as);
  return (await postCall(projectId, { ...body, confirmationToken: token }, as).expect(201)).body;
}

/** split-engine's draft settlement of the same actuals under the sample rules (Rule Version 1). */
function draft(actuals: Actuals, rules = sampleScenario() as unknown as ScenarioContent) {
  return formatSettlement(
    settlePeriod({ ...rules, periods: [{ periodId: actuals.periodId, revenue: actuals.revenue, costs: actuals.costs }] }, actuals.periodId),
  );
}

interface LedgerEntry {
  id: string;
  settlementRunId: string;
  participantId: string;
  amount: string;
  balance: string;
  kind: string;
  reversesEntryId: string | null;
}

/** Every entry of a ledger, following nextCursor, and the last page's balances. */
async function ledger(legalEntityId: string, org = ORG) {
  const entries: LedgerEntry[] = [];
  let balances: { currency: string; balance: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: request.Response = await request(server())
      .get(`/api/v2/equity-ledgers/${legalEntityId}`)
      .set(credentialHeaders(`member-of:${org}`, org))
      .query({ limit: 3, ...(cursor ? { cursor } : {}) })
      .expect(200);
    entries.push(...page.body.entries);
    balances = page.body.balances;
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return { entries, balances };
}

const LEGAL_ENTITIES = { platform: 'LEI-PLATFORM-0001', alice: 'LEI-ALICE-0002', bob: 'LEI-BOB-0003' } as const;
const balanceOf = async (legalEntityId: string) =>
  (await ledger(legalEntityId)).balances.find((b) => b.currency === 'EUR')?.balance ?? '0.00';

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});
beforeEach(() => {
  running.identity.mode = 'decide';
});

describe('posting a settlement run needs an explicit confirmation in two steps', () => {
  it('answers 428 with a bilingual challenge of the period, amounts, rule version and every allocation, then posts with the token', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const actuals = { periodId: '2026-02', revenue: '12000', costs: '2500.01' };
    const expected = draft(actuals);
    const before = await written();
    const body = withEnd(actuals);
    const first = await postCall(projectId, body).expect(428);
    expect(first.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(first.body).toMatchObject({
      status: 428,
      code: 'confirmation_required',
      confirmationToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const shown = first.body.challenge;
    expect(shown).toMatchObject({
      projectId,
      periodId: '2026-02',
      currency: 'EUR',
      gross: '12000.00',
      costs: '2500.01',
      distributable: expected.distributable,
      ruleVersion: 1,
      rulesDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      correctsRunId: null,
      reversals: [],
    });
    expect(shown.allocations).toEqual([
      { participantId: 'platform', legalEntityId: LEGAL_ENTITIES.platform, name: { en: 'Platform', 'zh-Hans': '平台' }, amount: '500.00' },
      {
        participantId: 'alice',
        legalEntityId: LEGAL_ENTITIES.alice,
        name: { en: 'Alice Studio', 'zh-Hans': '爱丽丝工作室' },
        amount: '5399.99',
      },
      { participantId: 'bob', legalEntityId: LEGAL_ENTITIES.bob, name: { en: 'Bob Games', 'zh-Hans': '鲍勃游戏' }, amount: '3600.00' },
    ]);
    expect(shown.summary.en).toContain('period 2026-02');
    expect(shown.summary.en).toContain('gross 12000.00 EUR, costs 2500.01 EUR, distributable 9499.99 EUR.');
    expect(shown.summary['zh-Hans']).toContain('总收入 12000.00 EUR，成本 2500.01 EUR，可分配金额 9499.99 EUR。');
    expect(shown.summary.en).toContain('distributable 9499.99 EUR');
    expect(shown.summary.en).toContain('Alice Studio (LEI-ALICE-0002) 5399.99 EUR');
    expect(shown.summary['zh-Hans']).toContain('可分配金额 9499.99 EUR');
    expect(shown.summary['zh-Hans']).toContain('爱丽丝工作室 (LEI-ALICE-0002) 5399.99 EUR');
    expect(await written()).toEqual({ ...before, challenges: before.challenges + 1 });

    const second = await postCall(projectId, { ...body, confirmationToken: first.body.confirmationToken }).expect(201);
    const run = second.body;
    expect(run).toMatchObject({
      organizationId: ORG,
      projectId,
      periodId: '2026-02',
      periodEnd: body.periodEnd,
      ruleVersion: 1,
      rulesDigest: shown.rulesDigest,
      gross: '12000.00',
      costs: '2500.01',
      distributable: '9499.99',
      currency: 'EUR',
      reversesRunId: null,
      correctedByRunId: null,
      postedBy: `human:approver-${ORG}`,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(await written()).toEqual({
      ...before,
      runs: before.runs + 1,
      entries: before.entries + 3,
      audit: before.audit + 1,
      challenges: before.challenges + 1,
      spentTokens: before.spentTokens + 1,
    });
    expect((await request(server()).get(`/api/v2/settlement-runs/${run.id}`).set(approver()).expect(200)).body).toEqual(run);
    const audit = await sql('SELECT action, target FROM write_audit ORDER BY at DESC, id DESC LIMIT 1');
    expect(audit[0]).toEqual({ action: 'settlement-run.post', target: run.id });
  });

  it("posts exactly split-engine's draft settlement of the same inputs, to the minor unit, and one ledger entry per participant", async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    for (const actuals of [
      { periodId: '2026-01', revenue: '10000.00', costs: '0' },
      { periodId: '2026-03', revenue: '1000.07', costs: '0.01' },
      { periodId: '2026-04', revenue: '300.00', costs: '299.99' },
      { periodId: '2026-05', revenue: '100.00', costs: '250.00' },
    ]) {
      const run = await post(projectId, actuals);
      const expected = draft(actuals);
      expect(run.distributable).toBe(expected.distributable);
      expect(run.tiers).toEqual(expected.tiers);
      expect(run.allocations).toEqual(
        expected.participants.map(({ participantId, total }) => ({
          participantId,
          legalEntityId: LEGAL_ENTITIES[participantId as keyof typeof LEGAL_ENTITIES],
          amount: total,
        })),
      );
      const sum = run.allocations.reduce((total: bigint, a: { amount: string }) => total + parseAmount(a.amount, 'EUR'), 0n);
      expect(formatAmount(sum, 'EUR')).toBe(run.distributable);
      const entries = await sql(
        'SELECT participant_id, legal_entity_id, amount, kind FROM equity_ledger_entry WHERE settlement_run_id = $1 ORDER BY posted_at, id',
        [run.id],
      );
      expect(entries).toEqual(
        run.allocations.map((a: { participantId: string; legalEntityId: string; amount: string }) => ({
          participant_id: a.participantId,
          legal_entity_id: a.legalEntityId,
          amount: a.amount,
          kind: 'allocation',
        })),
      );
    }
  });

  it('refuses a token of another approver and a token presented with other actuals, both unspent, and posts a token once', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const actuals = { periodId: '2026-06', revenue: '5000.00', costs: '100.00' };
    const mine = await challenge(projectId, actuals);
    const before = await written();
    const stolen = await postCall(projectId, { ...mine.body, confirmationToken: mine.token }, approver('mallory')).expect(403);
    expect(stolen.body.detail).toMatch(/not issued to you/);
    const altered = await postCall(projectId, { ...mine.body, revenue: '50000.00', confirmationToken: mine.token }).expect(409);
    expect(altered.body.detail).toMatch(/confirms another period, period end, revenue, costs or corrected run/);
    expect(await written()).toEqual(before);
    // "5000" is the same amount as "5000.00": the token confirms amounts, not spellings.
    await postCall(projectId, { ...mine.body, revenue: '5000', confirmationToken: mine.token }).expect(201);
    const afterPosting = await written();
    const reused = await postCall(projectId, { ...mine.body, confirmationToken: mine.token }).expect(409);
    expect(reused.body.detail).toMatch(/already settled/);
    expect(await written()).toEqual(afterPosting);
  });

  it("refuses a token of another write on the same project (an activation's, presented to a posting), unspent", async () => {
    const created = await request(server())
      .post('/api/v2/split-projects')
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .send({ name: 'Two tokens', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    const projectId: string = created.body.project.id;
    const scenarioId: string = created.body.scenario.id;
    const activate = (body: Record<string, unknown>) =>
      request(server())
        .post(`/api/v2/split-projects/${projectId}/activate`)
        .set(approver())
        .send({ scenarioId, ...body });
    const activationToken: string = (await activate({}).expect(428)).body.confirmationToken;
    await activate({ confirmationToken: (await activate({}).expect(428)).body.confirmationToken }).expect(201);
    const before = await written();
    const actuals = withEnd({ periodId: '2026-06', revenue: '10.00', costs: '0' });
    const crossed = await postCall(projectId, { ...actuals, confirmationToken: activationToken }).expect(403);
    expect(crossed.body.domainCode).toBe('confirmations.token_not_yours');
    expect(await written()).toEqual(before);
  });

  it('refuses an expired token, writing nothing', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const mine = await challenge(projectId, { periodId: '2026-07', revenue: '1.00', costs: '0' });
    await sql(
      `UPDATE confirmation_challenge SET expires_at = now() - interval '1 second' WHERE action = 'settlement-run:post' AND project_id = $1`,
      [projectId],
    );
    const before = await written();
    const expired = await postCall(projectId, { ...mine.body, confirmationToken: mine.token }).expect(409);
    expect(expired.body.detail).toMatch(/expired/);
    expect(await written()).toEqual(before);
  });

  it("ends a token by the database's clock, not by the clock of a replica running behind or ahead of it", async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const endsIn = (seconds: number) =>
      sql(`UPDATE confirmation_challenge SET expires_at = clock_timestamp() + $2 * interval '1 second' WHERE project_id = $1`, [
        projectId,
        seconds,
      ]);
    const ended = await challenge(projectId, { periodId: '2026-10', revenue: '1.00', costs: '0' });
    await endsIn(-1);
    const before = await written();
    const behind = await withReplicaClockSkewed(-60_000, () => postCall(projectId, { ...ended.body, confirmationToken: ended.token }));
    expect([behind.status, behind.body.domainCode]).toEqual([409, 'confirmations.token_expired']);
    expect(await written()).toEqual(before);

    const live = await challenge(projectId, { periodId: '2026-11', revenue: '1.00', costs: '0' });
    await endsIn(30);
    const ahead = await withReplicaClockSkewed(60_000, () => postCall(projectId, { ...live.body, confirmationToken: live.token }));
    expect(ahead.status).toBe(201);
  });

  it('refuses the token when the posting changed after the challenge, spending it and posting nothing', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const mine = await challenge(projectId, { periodId: '2026-09', revenue: '1500.00', costs: '0' });
    expect(mine.challenge.ruleVersion).toBe(1);
    // Rule versions made through the API start in the future; one written directly puts version 2 in force
    // at the period end, so the run would no longer be the one shown.
    const [v1] = await sql('SELECT effective_from FROM rule_version WHERE project_id = $1 AND version = 1', [projectId]);
    await sql(
      `INSERT INTO rule_version (project_id, version, scenario_id, revision, rules_digest, rules, effective_from, created_by)
       SELECT project_id, 2, scenario_id, revision, rules_digest, rules, $2::timestamptz + interval '1 millisecond', 'human:test' FROM rule_version WHERE project_id = $1 AND version = 1`,
      [projectId, v1.effective_from],
    );
    const before = await written();
    const changed = await postCall(projectId, { ...mine.body, confirmationToken: mine.token }).expect(409);
    expect(changed.body.domainCode).toBe('settlements.changed');
    expect(await written()).toEqual({ ...before, spentTokens: before.spentTokens + 1 });
  });
});

describe('a period is settled once; corrections reverse entry by entry', () => {
  it('refuses a second run for a settled period unless it corrects the standing run, writing nothing', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const first = await post(projectId, { periodId: '2026-01', revenue: '2000.00', costs: '0' });
    const other = await post(projectId, { periodId: '2026-02', revenue: '2000.00', costs: '0' });
    const before = await written();
    const again = await postCall(projectId, withEnd({ periodId: '2026-01', revenue: '2500.00', costs: '0' })).expect(409);
    expect(again.body.detail).toContain(`correctsRunId ${first.id}`);
    const wrongPeriod = await postCall(
      projectId,
      withEnd({ periodId: '2026-01', revenue: '2500.00', costs: '0', correctsRunId: other.id }),
    ).expect(422);
    expect(wrongPeriod.body.errors[0].field).toBe('correctsRunId');
    await postCall(projectId, withEnd({ periodId: '2026-01', revenue: '2500.00', costs: '0', correctsRunId: randomUUID() })).expect(404);
    expect(await written()).toEqual({ ...before, challenges: before.challenges });

    const correction = await post(projectId, { periodId: '2026-01', revenue: '2500.00', costs: '0', correctsRunId: first.id });
    expect(correction.reversesRunId).toBe(first.id);
    const stale = await postCall(
      projectId,
      withEnd({ periodId: '2026-01', revenue: '2600.00', costs: '0', correctsRunId: first.id }),
    ).expect(409);
    expect(stale.body.detail).toContain(`already corrected by run ${correction.id}`);
    const original = (await request(server()).get(`/api/v2/settlement-runs/${first.id}`).set(approver()).expect(200)).body;
    expect(original.correctedByRunId).toBe(correction.id);
    await post(projectId, { periodId: '2026-01', revenue: '2600.00', costs: '0', correctsRunId: correction.id });
  });

  it('refuses to correct a run of another project of the organization with 404, writing nothing (not even a challenge)', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const other = await activatedProject(running.api, ORG);
    const theirs = await post(other.projectId, { periodId: '2026-04', revenue: '2000.00', costs: '0' });
    const before = await written();
    const response = await postCall(
      projectId,
      withEnd({ periodId: '2026-04', revenue: '2500.00', costs: '0', correctsRunId: theirs.id }),
    ).expect(404);
    expect(response.body.domainCode).toBe('settlements.corrected_run_not_in_project');
    expect(await written()).toEqual(before);
  });

  it('reverses the corrected run entry by entry, bringing every balance back exactly before the corrected allocation', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const opening = Object.fromEntries(await Promise.all(Object.values(LEGAL_ENTITIES).map(async (id) => [id, await balanceOf(id)])));
    const first = await post(projectId, { periodId: '2027-01', revenue: '7777.77', costs: '1234.56' });
    const correction = await challenge(projectId, { periodId: '2027-01', revenue: '8000.00', costs: '1234.56', correctsRunId: first.id });
    const firstEntries: { id: string; legal_entity_id: string; amount: string }[] = await sql(
      'SELECT id, legal_entity_id, amount FROM equity_ledger_entry WHERE settlement_run_id = $1 ORDER BY posted_at, id',
      [first.id],
    );
    expect(correction.challenge.reversals).toEqual(
      firstEntries.map((e) => ({
        entryId: e.id,
        participantId: expect.any(String),
        legalEntityId: e.legal_entity_id,
        amount: formatAmount(-parseAmount(e.amount, 'EUR'), 'EUR'),
      })),
    );
    expect(correction.challenge.summary.en).toContain(`corrects run ${first.id}: its 3 ledger entries are reversed`);
    expect(correction.challenge.summary['zh-Hans']).toContain('逐笔冲销其 3 笔权益账目');
    const second = (await postCall(projectId, { ...correction.body, confirmationToken: correction.token }).expect(201)).body;
    expect(second.allocations).toEqual(
      draft({ periodId: '2027-01', revenue: '8000.00', costs: '1234.56' }).participants.map(({ participantId, total }) => ({
        participantId,
        legalEntityId: LEGAL_ENTITIES[participantId as keyof typeof LEGAL_ENTITIES],
        amount: total,
      })),
    );

    for (const legalEntityId of Object.values(LEGAL_ENTITIES)) {
      const { entries } = await ledger(legalEntityId);
      const ofFirst = entries.filter((e) => e.settlementRunId === first.id);
      const ofSecond = entries.filter((e) => e.settlementRunId === second.id);
      expect(ofFirst).toHaveLength(1);
      expect(ofSecond.map((e) => e.kind)).toEqual(['reversal', 'allocation']);
      const [reversal, allocation] = ofSecond as [LedgerEntry, LedgerEntry];
      expect(reversal.reversesEntryId).toBe(ofFirst[0]!.id);
      expect(parseAmount(reversal.amount, 'EUR')).toBe(-parseAmount(ofFirst[0]!.amount, 'EUR'));
      expect(reversal.balance).toBe(opening[legalEntityId]);
      const corrected = second.allocations.find((a: { legalEntityId: string }) => a.legalEntityId === legalEntityId).amount;
      expect(allocation.balance).toBe(formatAmount(parseAmount(opening[legalEntityId]!, 'EUR') + parseAmount(corrected, 'EUR'), 'EUR'));
    }
  });

  it("reverses, in a correction of a correction, only the allocations of the run it corrects, not that run's reversals", async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const opening = Object.fromEntries(await Promise.all(Object.values(LEGAL_ENTITIES).map(async (id) => [id, await balanceOf(id)])));
    const actuals = { periodId: '2028-01', costs: '0' };
    const first = await post(projectId, { ...actuals, revenue: '1000.00' });
    const second = await post(projectId, { ...actuals, revenue: '2000.00', correctsRunId: first.id });
    const third = await challenge(projectId, { ...actuals, revenue: '3000.00', correctsRunId: second.id });
    const secondAllocations: { id: string; amount: string }[] = await sql(
      `SELECT id, amount FROM equity_ledger_entry WHERE settlement_run_id = $1 AND kind = 'allocation' ORDER BY posted_at, id`,
      [second.id],
    );
    expect(secondAllocations).toHaveLength(3);
    expect(third.challenge.reversals.map((r: { entryId: string; amount: string }) => [r.entryId, r.amount])).toEqual(
      secondAllocations.map((e) => [e.id, formatAmount(-parseAmount(e.amount, 'EUR'), 'EUR')]),
    );
    expect(third.challenge.summary.en).toContain(`corrects run ${second.id}: its 3 ledger entries are reversed`);
    const posted = (await postCall(projectId, { ...third.body, confirmationToken: third.token }).expect(201)).body;
    for (const { legalEntityId, amount } of posted.allocations as { legalEntityId: string; amount: string }[]) {
      const { entries } = await ledger(legalEntityId);
      expect(entries.filter((e) => e.settlementRunId === posted.id).map((e) => e.kind)).toEqual(['reversal', 'allocation']);
      expect(await balanceOf(legalEntityId)).toBe(
        formatAmount(parseAmount(opening[legalEntityId]!, 'EUR') + parseAmount(amount, 'EUR'), 'EUR'),
      );
    }
  });

  it('keeps every ledger balance equal to the sum of its entries', async () => {
    for (const legalEntityId of Object.values(LEGAL_ENTITIES)) {
      const { entries, balances } = await ledger(legalEntityId);
      expect(entries.length).toBeGreaterThan(10);
      let running = 0n;
      for (const entry of entries) {
        running += parseAmount(entry.amount, 'EUR');
        expect(entry.balance).toBe(formatAmount(running, 'EUR'));
      }
      expect(balances).toEqual([{ currency: 'EUR', balance: formatAmount(running, 'EUR') }]);
      const [{ total }] = await sql(
        'SELECT sum(amount::numeric)::text AS total FROM equity_ledger_entry WHERE organization_id = $1 AND legal_entity_id = $2',
        [ORG, legalEntityId],
      );
      expect(parseAmount(total, 'EUR')).toBe(running);
    }
  });

  it('lets exactly one of concurrent postings for one period win, and one of concurrent corrections of one run', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const names = ['ann', 'ben', 'cat', 'dan', 'eve'];
    const actuals = { periodId: '2026-q3', revenue: '999.99', costs: '0' };
    const challenges = await Promise.all(names.map((name) => challenge(projectId, actuals, approver(name))));
    const answers = await Promise.all(
      challenges.map(({ body, token }, i) => postCall(projectId, { ...body, confirmationToken: token }, approver(names[i]))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await count('settlement_run WHERE project_id = $1 AND period_id = $2', [projectId, '2026-q3'])).toBe(1);
    const winner = answers.find((a) => a.status === 201)!.body;
    expect(await count('equity_ledger_entry WHERE settlement_run_id = $1', [winner.id])).toBe(3);

    const corrections = await Promise.all(
      names.map((name, i) => challenge(projectId, { ...actuals, revenue: `${1000 + i}.00`, correctsRunId: winner.id }, approver(name))),
    );
    const corrected = await Promise.all(
      corrections.map(({ body, token }, i) => postCall(projectId, { ...body, confirmationToken: token }, approver(names[i]))),
    );
    expect(corrected.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await count('settlement_run WHERE reverses_run_id = $1', [winner.id])).toBe(1);
  });

  it('applies the rule version in force at the period end, not a later one that starts in the future', async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const tiers = (sampleScenario()['tiers'] as Record<string, unknown>[]).map((tier) =>
      tier['kind'] === 'percentage'
        ? {
            ...tier,
            shares: [
              { participantId: 'alice', basisPoints: 2000 },
              { participantId: 'bob', basisPoints: 8000 },
            ],
          }
        : tier,
    );
    await request(server())
      .patch(`/api/v2/operating-scenarios/${scenarioId}`)
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .send({ tiers })
      .expect(200);
    // Rule versions made through the API start in the future; version 2 is written directly so that it is already in force.
    const [v1] = await sql('SELECT effective_from FROM rule_version WHERE project_id = $1 AND version = 1', [projectId]);
    await sql(
      `INSERT INTO rule_version (project_id, version, scenario_id, revision, rules_digest, rules, effective_from, created_by)
       SELECT $1, 2, scenario_id, revision, rules_digest, content, $3::timestamptz + interval '1 millisecond', 'human:test' FROM scenario_revision WHERE scenario_id = $2 AND revision = 2`,
      [projectId, scenarioId, v1.effective_from],
    );
    const future = { scenarioId, revision: 1, effectiveFrom: '2999-01-01T00:00:00Z' };
    await request(server()).post(`/api/v2/split-projects/${projectId}/rule-versions`).set(approver()).send(future).expect(201);
    const actuals = { periodId: '2026-08', revenue: '1500.00', costs: '0' };
    const underV1 = await challenge(projectId, { ...actuals, periodEnd: v1.effective_from.toISOString() });
    expect(underV1.challenge.ruleVersion).toBe(1);
    const run = await post(projectId, actuals);
    expect(run.ruleVersion).toBe(2);
    const v2Rules = { ...sampleScenario(), tiers } as unknown as ScenarioContent;
    expect(run.tiers).toEqual(draft(actuals, v2Rules).tiers);
    expect(run.allocations.map((a: { amount: string }) => a.amount)).toEqual(['500.00', '200.00', '800.00']);
  });

  it("posts after the organization's latest posting even when the clock says earlier, so ledger order is commit order", async () => {
    const org = randomUUID();
    const { projectId } = await activatedProject(running.api, org);
    const earlier = await post(projectId, { periodId: '2026-01', revenue: '100.00', costs: '0' }, approver(undefined, org));
    const future = '2999-01-01T00:00:00.000001Z';
    await sql(
      `INSERT INTO equity_ledger_entry (id, organization_id, legal_entity_id, settlement_run_id, participant_id, currency, amount, posted_at)
       VALUES ($1, $2, 'LEI-ALICE-0002', $3, 'alice', 'EUR', '1.00', $4)`,
      [randomUUID(), org, earlier.id, future],
    );
    const later = await post(projectId, { periodId: '2026-02', revenue: '100.00', costs: '0' }, approver(undefined, org));
    expect(later.postedAt).toMatch(/^2999-01-01T/);
    const [{ after }] = await sql('SELECT posted_at > $2::timestamptz AS after FROM settlement_run WHERE id = $1', [later.id, future]);
    expect(after).toBe(true);
    const { entries } = await ledger('LEI-ALICE-0002', org);
    expect(entries.map((e) => e.settlementRunId)).toEqual([earlier.id, earlier.id, later.id]);
    const runs = (
      await request(server()).get(`/api/v2/split-projects/${projectId}/settlement-runs`).set(approver(undefined, org)).expect(200)
    ).body.items;
    expect(runs.map((r: { id: string }) => r.id)).toEqual([earlier.id, later.id]);
  });
});

describe('ledgers hold sums beyond what one posting can carry', () => {
  it('reads a ledger page after a cursor whose opening balance has more than 18 integer digits, exactly', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const largest = '999999999999999999.99';
    const runs = [
      await post(projectId, { periodId: '2031-01', revenue: largest, costs: '0' }),
      await post(projectId, { periodId: '2031-02', revenue: largest, costs: '0' }),
      await post(projectId, { periodId: '2031-03', revenue: largest, costs: '0' }),
      await post(projectId, { periodId: '2031-04', revenue: largest, costs: '0' }),
    ];
    const legalEntityId = LEGAL_ENTITIES.alice;
    const posted = runs.map(
      (run) => run.allocations.find((a: { legalEntityId: string }) => a.legalEntityId === legalEntityId).amount as string,
    );
    const { entries, balances } = await ledger(legalEntityId);
    let expected = 0n;
    for (const entry of entries) expected += parseAmount(entry.amount, 'EUR');
    expect(formatAmount(expected, 'EUR').split('.')[0]!.length).toBeGreaterThan(18);
    expect(balances).toEqual([{ currency: 'EUR', balance: formatAmount(expected, 'EUR') }]);
    expect(entries.slice(-4).map((entry) => entry.amount)).toEqual(posted);
  });
});

describe('only authorised people may post', () => {
  it('refuses API keys whatever identity answers, writing nothing (not even a challenge) but its own refusals, as denied', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const before = await written();
    const body = withEnd({ periodId: '2026-01', revenue: '10.00', costs: '0' });
    const appKey = await postCall(projectId, body, credentialHeaders(`stdreg_app_agent_of:${ORG}`, ORG)).expect(403);
    expect(appKey.body.detail).toContain('human_required');
    const misjudged = await postCall(projectId, body, credentialHeaders(`stdreg_misjudged_of:${ORG}`, ORG)).expect(403);
    expect(misjudged.body.detail).toContain('human_required');
    const withToken = await postCall(
      projectId,
      { ...body, confirmationToken: 'x'.repeat(43) },
      credentialHeaders(`stdreg_misjudged_of:${ORG}`, ORG),
    ).expect(403);
    expect(withToken.body.detail).toContain('human_required');
    expect(await written()).toEqual(before);
    expect(
      await running.api.dataSource.query(
        `SELECT action, outcome, subject_kind AS "subjectKind" FROM write_audit WHERE target = $1 AND outcome = 'denied'`,
        [projectId],
      ),
    ).toEqual([
      { action: 'settlement-run.post', outcome: 'denied', subjectKind: 'app_key' },
      { action: 'settlement-run.post', outcome: 'denied', subjectKind: 'app_key' },
    ]);
  });

  it('refuses a member without an approving role, and another organization, writing nothing', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const before = await written();
    const body = withEnd({ periodId: '2026-01', revenue: '10.00', costs: '0' });
    const member = await postCall(projectId, body, credentialHeaders(`member-of:${ORG}`, ORG)).expect(403);
    expect(member.body.detail).toContain('role_required');
    await postCall(projectId, body, approver(undefined, OTHER_ORG)).expect(404);
    expect(await written()).toEqual(before);
  });

  it('answers 503 and writes nothing when identity cannot be asked, and the token stays usable', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const mine = await challenge(projectId, { periodId: '2026-01', revenue: '10.00', costs: '0' });
    const before = await written();
    for (const mode of UNAVAILABLE_MODES) {
      running.identity.mode = mode;
      const refused = await postCall(projectId, { ...mine.body, confirmationToken: mine.token }).expect(503);
      expect(refused.body.code).toBe('authorization_unavailable');
      await postCall(projectId, mine.body).expect(503);
    }
    expect(await written()).toEqual(before);
    running.identity.mode = 'decide';
    await postCall(projectId, { ...mine.body, confirmationToken: mine.token }).expect(201);
  });
});

describe('bad input is refused with field errors and changes nothing', () => {
  it('refuses bad actuals, a period end in the future or before Rule Version 1, and unknown fields', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const [v1] = await sql('SELECT effective_from FROM rule_version WHERE project_id = $1 AND version = 1', [projectId]);
    const before = await written();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ revenue: '-1.00' }, 422, 'revenue'],
      [{ costs: '1.001' }, 422, 'costs'],
      [{ revenue: '1e3' }, 422, 'revenue'],
      [{ periodId: 'January 2026' }, 422, 'periodId'],
      [{ periodEnd: new Date(Date.now() + 3_600_000).toISOString() }, 422, 'periodEnd'],
      [{ periodEnd: new Date(v1.effective_from.getTime() - 1000).toISOString() }, 422, 'periodEnd'],
      [{ periodEnd: 'yesterday' }, 400, ''],
      [{ correctsRunId: 'not-a-uuid' }, 400, ''],
      [{ surprise: true }, 400, ''],
      [{ periodId: 'p'.repeat(41) }, 400, 'periodId'],
      [{ revenue: '1'.repeat(41) }, 400, 'revenue'],
      [{ costs: '1'.repeat(41) }, 400, 'costs'],
      [{ confirmationToken: 't'.repeat(201) }, 400, 'confirmationToken'],
    ];
    for (const [change, status, field] of cases) {
      const response = await postCall(projectId, { ...withEnd({ periodId: '2026-01', revenue: '10.00', costs: '0' }), ...change }).expect(
        status,
      );
      if (field) expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    await postCall(projectId, { periodId: '2026-01', revenue: '10.00' }).expect(400);
    expect(await written()).toEqual(before);
  });
});

describe('posted facts are append-only in the database', () => {
  it('refuses raw UPDATE and DELETE of posted runs and entries, and a second first run for a period', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const run = await post(projectId, { periodId: '2026-01', revenue: '10.00', costs: '0' });
    await expect(sql(`UPDATE settlement_run SET distributable = '0.00' WHERE id = $1`, [run.id])).rejects.toThrow(/append-only/);
    await expect(sql('DELETE FROM settlement_run WHERE id = $1', [run.id])).rejects.toThrow(/append-only/);
    await expect(sql(`UPDATE equity_ledger_entry SET amount = '0.00' WHERE settlement_run_id = $1`, [run.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql('DELETE FROM equity_ledger_entry WHERE settlement_run_id = $1', [run.id])).rejects.toThrow(/append-only/);
    await expect(
      sql(
        `INSERT INTO settlement_run (id, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest, posted_by,
         period_end, rules_digest, tiers)
       SELECT $1, organization_id, project_id, period_id, rule_version, gross, costs, distributable, currency, allocations, digest, posted_by, period_end, rules_digest, tiers
         FROM settlement_run WHERE id = $2`,
        [randomUUID(), run.id],
      ),
    ).rejects.toThrow(/settlement_run_period_once/);
    expect(await count('equity_ledger_entry WHERE settlement_run_id = $1', [run.id])).toBe(3);
  });
});

describe('the OpenAPI description', () => {
  it('documents posting, its 428 challenge and its errors', async () => {
    const { body } = await request(server()).get('/api/v2/openapi.json').expect(200);
    const operation = body.paths['/api/v2/split-projects/{id}/settlement-runs']?.post;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '404', '409', '422', '428', '503']));
    expect(operation.responses['428'].content['application/problem+json'].schema.$ref).toBe(
      '#/components/schemas/SettlementConfirmationRequiredProblemDto',
    );
    expect(body.components.schemas.PostSettlementRunRequestDto.required).toEqual(
      expect.arrayContaining(['periodId', 'periodEnd', 'revenue', 'costs']),
    );
    expect(Object.keys(body.components.schemas.SettlementChallengeDto.properties)).toEqual(
      expect.arrayContaining(['periodId', 'gross', 'distributable', 'ruleVersion', 'allocations', 'summary', 'reversals']),
    );
  });
});
