// Posted settlements and equity ledgers are exact, through the HTTP API, on generated rules in currencies
// of 0, 2 and 3 minor digits: each run pays out its distributable amount, each ledger moves by exactly its
// allocations, and a chain of corrections ending in a pure reversal brings every balance back to where it was.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { formatAmount, formatSettlement, minorDigitsOf, settlePeriod, type ScenarioContent, type Tier } from '@stdreg/split-engine';
import { credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';

const ORG = randomUUID();
let running: ProtectedApi;

const member = credentialHeaders(`member-of:${ORG}`, ORG);
const approver = credentialHeaders(`approver-of:${ORG}`, ORG);
const server = () => running.api.server;

/** Minor units of a decimal string, read here rather than by split-engine. */
function minorOf(text: string, currency: string): bigint {
  const digits = minorDigitsOf(currency)!;
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const magnitude = BigInt(whole! + fraction.padEnd(digits, '0'));
  return negative ? -magnitude : magnitude;
}

async function activatedProject(content: ScenarioContent): Promise<string> {
  const created = (
    await request(server())
      .post('/api/v2/split-projects')
      .set(member)
      .send({ name: 'Generated rules', currency: content.currency, templateVersion: '2.0', scenario: { name: 'Baseline', content } })
      .expect(201)
  ).body;
  const activate = (body: Record<string, unknown>) =>
    request(server())
      .post(`/api/v2/split-projects/${created.project.id}/activate`)
      .set(approver)
      .send({ scenarioId: created.scenario.id, ...body });
  const { confirmationToken } = (await activate({}).expect(428)).body;
  await activate({ confirmationToken }).expect(201);
  return created.project.id;
}

interface Run {
  id: string;
  currency: string;
  distributable: string;
  allocations: { participantId: string; legalEntityId: string; amount: string }[];
}

async function post(projectId: string, actuals: { revenue: string; costs: string; correctsRunId?: string }): Promise<Run> {
  const body = { periodId: '2026-06', periodEnd: new Date().toISOString(), ...actuals };
  const path = `/api/v2/split-projects/${projectId}/settlement-runs`;
  const { confirmationToken } = (await request(server()).post(path).set(approver).send(body).expect(428)).body;
  return (
    await request(server())
      .post(path)
      .set(approver)
      .send({ ...body, confirmationToken })
      .expect(201)
  ).body;
}

/** Each currency's balance of a ledger, read page by page (two entries a page, so every later page opens with a stored balance). */
async function balancesOf(legalEntityId: string): Promise<Map<string, bigint>> {
  const sums = new Map<string, bigint>();
  let shown: { currency: string; balance: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: request.Response = await request(server())
      .get(`/api/v2/equity-ledgers/${legalEntityId}`)
      .set(member)
      .query({ limit: 2, ...(cursor ? { cursor } : {}) })
      .expect(200);
    for (const entry of page.body.entries as { currency: string; amount: string; balance: string }[]) {
      sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + minorOf(entry.amount, entry.currency));
      expect(minorOf(entry.balance, entry.currency)).toBe(sums.get(entry.currency));
    }
    shown = page.body.balances;
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  expect(new Map(shown.map(({ currency, balance }) => [currency, minorOf(balance, currency)]))).toEqual(sums);
  return sums;
}

const LEGAL_ENTITIES = ['LEI-SHARED-1', 'LEI-SHARED-2', 'LEI-SHARED-3'];

/** Rules in a 0, 2 or 3 digit currency: maybe a fixed tier, maybe a capped split, then the rest split; participants may share a legal entity. */
const rules = fc.constantFrom('JPY', 'EUR', 'KWD').chain((currency) => {
  const digits = minorDigitsOf(currency)!;
  const money = (max: bigint) => fc.bigInt({ min: 0n, max }).map((minor) => formatAmount(minor, currency));
  const ids = ['p-a', 'p-b', 'p-c', 'p-d'];
  const shares = fc.uniqueArray(fc.integer({ min: 0, max: 10000 }), { maxLength: ids.length - 1 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 10000];
    return points.slice(1).map((point, index) => ({ participantId: ids[index]!, basisPoints: point - points[index]! }));
  });
  const label = { en: 'Tier', 'zh-Hans': '层级' };
  return fc
    .record({
      legalEntities: fc.tuple(...ids.map(() => fc.constantFrom(...LEGAL_ENTITIES))),
      fee: fc.option(money(10n ** BigInt(digits + 4))),
      capped: fc.option(
        fc.tuple(
          shares,
          money(10n ** BigInt(digits + 4)).filter((cap) => minorOf(cap, currency) > 0n),
        ),
      ),
      rest: shares,
    })
    .map(({ legalEntities, fee, capped, rest }): ScenarioContent => {
      const tiers: Tier[] = [];
      if (fee !== null) tiers.push({ tierId: 'fee', kind: 'fixed', label, allocations: [{ participantId: 'p-d', amount: fee }] });
      if (capped !== null) tiers.push({ tierId: 'capped', kind: 'percentage', label, shares: capped[0], capAmount: capped[1] });
      tiers.push({ tierId: 'rest', kind: 'percentage', label, shares: rest });
      return {
        currency,
        periods: [{ periodId: '2026-06', revenue: '0', costs: '0' }],
        participants: ids.map((participantId, index) => ({
          participantId,
          name: { en: participantId, 'zh-Hans': participantId },
          legalEntityId: legalEntities[index]!,
        })),
        tiers,
      };
    });
});

/** Revenue and costs from nothing to the 18 integer digits an amount may have. */
const actuals = (currency: string) => {
  const digits = BigInt(minorDigitsOf(currency)!);
  const amount = fc
    .oneof(fc.bigInt({ min: 0n, max: 10n ** (digits + 5n) }), fc.bigInt({ min: 0n, max: 10n ** (18n + digits) - 1n }))
    .map((minor) => formatAmount(minor, currency));
  return fc.record({ revenue: amount, costs: amount });
};

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('posted settlements and equity ledgers, for generated rules and actuals', () => {
  it('pay out exactly the distributable amount, move each ledger by exactly its allocations, and a pure reversal restores every balance', async () => {
    const scenarios = rules.chain((content) => fc.tuple(fc.constant(content), actuals(content.currency), actuals(content.currency)));
    await fc.assert(
      fc.asyncProperty(scenarios, async ([content, first, second]) => {
        const projectId = await activatedProject(content);
        const opening = new Map(await Promise.all(LEGAL_ENTITIES.map(async (id) => [id, await balancesOf(id)] as const)));
        const balanceOf = (balances: Map<string, bigint>) => balances.get(content.currency) ?? 0n;

        let standing: Run | null = null;
        for (const step of [first, second, { revenue: '0', costs: '0' }]) {
          const run: Run = await post(projectId, { ...step, ...(standing ? { correctsRunId: standing.id } : {}) });
          const revenue = minorOf(step.revenue, content.currency);
          const costs = minorOf(step.costs, content.currency);
          const distributable = revenue > costs ? revenue - costs : 0n;
          expect(run.currency).toBe(content.currency);
          expect(minorOf(run.distributable, content.currency)).toBe(distributable);
          expect(run.allocations.reduce((sum, a) => sum + minorOf(a.amount, content.currency), 0n)).toBe(distributable);
          const draft = formatSettlement(settlePeriod({ ...content, periods: [{ periodId: '2026-06', ...step }] }, '2026-06'));
          expect(run.allocations.map((a) => a.amount)).toEqual(draft.participants.map((p) => p.total));
          for (const legalEntityId of LEGAL_ENTITIES) {
            const allocated = run.allocations
              .filter((a) => a.legalEntityId === legalEntityId)
              .reduce((sum, a) => sum + minorOf(a.amount, content.currency), 0n);
            expect(balanceOf(await balancesOf(legalEntityId))).toBe(balanceOf(opening.get(legalEntityId)!) + allocated);
          }
          standing = run;
        }
        // Every currency of every ledger is back exactly where it was (a balance of 0 and no balance are alike).
        for (const legalEntityId of LEGAL_ENTITIES) {
          const before = opening.get(legalEntityId)!;
          const after = await balancesOf(legalEntityId);
          for (const currency of new Set([...before.keys(), ...after.keys()])) {
            expect([legalEntityId, currency, after.get(currency) ?? 0n]).toEqual([legalEntityId, currency, before.get(currency) ?? 0n]);
          }
        }
      }),
      // Each run posts over HTTP: report the first counterexample rather than shrink it for minutes.
      { numRuns: 6, endOnFailure: true },
    );
  });
});
