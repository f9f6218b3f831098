// The engine against an independent oracle: the split rules of docs/decisions.md and the README,
// worked out naively in bigint minor units, compared amount by amount on generated scenarios.
import fc from 'fast-check';
import {
  SUPPORTED_CURRENCIES,
  allocateParts,
  explainSettlement,
  formatSettlement,
  minorDigitsOf,
  settlePeriod,
  settleScenario,
  validateScenario,
  type ScenarioContent,
} from '../src';
import { scenarioOf } from './support/valid-scenarios';

/** "1234.5" with `digits` minor digits -> 123450n, by string surgery rather than the engine's reader. */
function minorOf(text: string, digits: number): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole! + fraction + '0'.repeat(digits - fraction.length));
}

/** 123450n -> "1234.50", the other way round, by division. */
function decimalOf(minor: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const sign = minor < 0n ? '-' : '';
  const magnitude = minor < 0n ? -minor : minor;
  const fraction = (magnitude % scale).toString().padStart(digits, '0');
  return `${sign}${magnitude / scale}${digits === 0 ? '' : `.${fraction}`}`;
}

interface OracleShare {
  participantId: string;
  basisPoints: number;
  paid: bigint;
  roundingUnits: number;
}

interface OraclePeriod {
  distributable: bigint;
  /** Per tier: what reached it and what it paid each entry, in the tier's order. */
  tiers: { available: bigint; paid: bigint[]; roundingUnits: number[] }[];
  totals: Map<string, bigint>;
}

/**
 * Largest remainder as the rules say it, one leftover unit at a time: each unit goes to the part
 * with the largest remainder that has not had one yet, ties to the larger basis points, then to the
 * participant id first in UTF-16 order.
 */
function largestRemainder(amount: bigint, shares: readonly { participantId: string; basisPoints: number }[]): OracleShare[] {
  const parts = shares.map((share) => ({
    ...share,
    paid: (amount * BigInt(share.basisPoints)) / 10000n,
    remainder: (amount * BigInt(share.basisPoints)) % 10000n,
    roundingUnits: 0,
  }));
  let leftover = amount - parts.reduce((sum, part) => sum + part.paid, 0n);
  while (leftover > 0n) {
    let best: (typeof parts)[number] | undefined;
    for (const part of parts) {
      if (part.roundingUnits === 1) continue;
      const better =
        best === undefined ||
        part.remainder > best.remainder ||
        (part.remainder === best.remainder && part.basisPoints > best.basisPoints) ||
        (part.remainder === best.remainder && part.basisPoints === best.basisPoints && part.participantId < best.participantId);
      if (better) best = part;
    }
    best!.paid += 1n;
    best!.roundingUnits = 1;
    leftover -= 1n;
  }
  return parts.map(({ participantId, basisPoints, paid, roundingUnits }) => ({ participantId, basisPoints, paid, roundingUnits }));
}

function oraclePeriod(scenario: ScenarioContent, periodId: string): OraclePeriod {
  const digits = minorDigitsOf(scenario.currency)!;
  const period = scenario.periods.find((candidate) => candidate.periodId === periodId)!;
  const revenue = minorOf(period.revenue, digits);
  const costs = minorOf(period.costs, digits);
  const distributable = revenue - costs > 0n ? revenue - costs : 0n;
  const totals = new Map(scenario.participants.map((participant) => [participant.participantId, 0n]));
  let remaining = distributable;
  const tiers = scenario.tiers.map((tier) => {
    const available = remaining;
    if (tier.kind === 'fixed') {
      const paid = tier.allocations.map((allocation) => {
        const due = minorOf(allocation.amount, digits);
        const payment = due <= remaining ? due : remaining;
        remaining -= payment;
        totals.set(allocation.participantId, totals.get(allocation.participantId)! + payment);
        return payment;
      });
      return { available, paid, roundingUnits: paid.map(() => 0) };
    }
    const cap = tier.capAmount === undefined ? undefined : minorOf(tier.capAmount, digits);
    const split = cap !== undefined && cap < remaining ? cap : remaining;
    remaining -= split;
    const parts = largestRemainder(split, tier.shares);
    for (const part of parts) totals.set(part.participantId, totals.get(part.participantId)! + part.paid);
    return { available, paid: parts.map((part) => part.paid), roundingUnits: parts.map((part) => part.roundingUnits) };
  });
  if (remaining !== 0n) throw new Error(`oracle: ${remaining} minor units left after the last tier`);
  return { distributable, tiers, totals };
}

// Kebab-case ids whose UTF-16 order differs from a naive reading: "a-b" < "a0" < "aa".
const idAlphabet = fc.constantFrom('a', 'b', 'z', '0', '9');
const participantIdArb = fc
  .tuple(fc.array(idAlphabet, { minLength: 1, maxLength: 3 }), fc.option(fc.array(idAlphabet, { minLength: 1, maxLength: 2 })))
  .map(([head, tail]) => (tail === null ? head.join('') : `${head.join('')}-${tail.join('')}`));

/** Shares summing to exactly 10000: often equal ones (so remainders tie), sometimes zero ones. */
function sharesOf(ids: readonly string[]): fc.Arbitrary<{ participantId: string; basisPoints: number }[]> {
  const even = fc.constant(ids.map((participantId, index) => ({ participantId, basisPoints: evenCut(ids.length, index) })));
  const random = fc.uniqueArray(fc.integer({ min: 0, max: 10000 }), { maxLength: ids.length - 1 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 10000];
    return points.slice(1).map((point, index) => ({ participantId: ids[index]!, basisPoints: point - points[index]! }));
  });
  return fc.oneof(even, random);
}

/** 10000 split as evenly as can be over `count`, the larger cuts first (3334/3333/3333). */
function evenCut(count: number, index: number): number {
  return Math.floor(10000 / count) + (index < 10000 % count ? 1 : 0);
}

/** Minor units from zero, through a few units, to the 18 integer digits an amount may have. */
function minorAmounts(digits: number): fc.Arbitrary<bigint> {
  const largest = 10n ** BigInt(18 + digits) - 1n;
  return fc.oneof(
    fc.constant(0n),
    fc.bigInt({ min: 0n, max: 20n }),
    fc.bigInt({ min: 0n, max: 10n ** BigInt(digits + 6) }),
    fc.bigInt({ min: largest - 1000n, max: largest }),
    fc.bigInt({ min: 0n, max: largest }),
  );
}

/** The amount written canonically or with the trailing fraction zeros dropped ("500" for 500.00). */
function amountText(minor: bigint, digits: number, short: boolean): string {
  const canonical = decimalOf(minor, digits);
  if (!short || digits === 0) return canonical;
  return canonical.replace(/0+$/, '').replace(/\.$/, '');
}

const scenarios: fc.Arbitrary<ScenarioContent> = fc.constantFrom(...SUPPORTED_CURRENCIES).chain((currency) => {
  const digits = minorDigitsOf(currency)!;
  const money = fc.tuple(minorAmounts(digits), fc.boolean()).map(([minor, short]) => amountText(minor, digits, short));
  const positiveMoney = fc
    .tuple(minorAmounts(digits), fc.boolean())
    .map(([minor, short]) => amountText(minor === 0n ? 1n : minor, digits, short));
  return fc.uniqueArray(participantIdArb, { minLength: 1, maxLength: 40, size: 'medium' }).chain((ids) => {
    const subset = fc.shuffledSubarray(ids, { minLength: 1 });
    const fixedTier = subset.chain((chosen) => fc.tuple(...chosen.map((id) => money.map((amount) => ({ participantId: id, amount })))));
    const percentageTier = subset.chain(sharesOf);
    return fc
      .record({
        periods: fc.array(fc.record({ revenue: money, costs: money }), { minLength: 1, maxLength: 12 }),
        fixed: fc.array(fixedTier, { maxLength: 4 }),
        capped: fc.array(fc.tuple(percentageTier, positiveMoney), { maxLength: 4 }),
        last: percentageTier,
        listed: fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }),
      })
      .map((parts) => scenarioOf(currency, parts));
  });
});

/** The content as the posting path takes it: validated first (a fresh copy), then settled. */
function validated(content: ScenarioContent): ScenarioContent {
  const validation = validateScenario(content);
  if (!validation.ok) throw new Error(`generated an invalid scenario: ${JSON.stringify(validation.errors)}`);
  return validation.scenario;
}

function expectEngineMatchesOracle(content: ScenarioContent): void {
  const scenario = validated(content);
  for (const { periodId } of scenario.periods) {
    const expected = oraclePeriod(scenario, periodId);
    const settlement = settlePeriod(scenario, periodId);
    expect(settlement.distributable).toBe(expected.distributable);
    expect(
      settlement.tiers.map((tier) => ({
        available: tier.available,
        paid: tier.payments.map((payment) => payment.paid),
        roundingUnits: tier.payments.map((payment) =>
          tier.kind === 'percentage' ? (payment as { roundingUnits: number }).roundingUnits : 0,
        ),
      })),
    ).toEqual(expected.tiers);
    expect(settlement.participants).toEqual(
      scenario.participants.map(({ participantId }) => ({ participantId, total: expected.totals.get(participantId)! })),
    );
  }
}

const sharesOfPairs = (pairs: [string, number][]) => pairs.map(([participantId, basisPoints]) => ({ participantId, basisPoints }));

describe('settlement, against an independent oracle of the split rules', () => {
  it('pays every tier, share and participant exactly what the rules say, in every currency and at any size', () => {
    fc.assert(fc.property(scenarios, expectEngineMatchesOracle), { numRuns: 300 });
  });

  it('allocates any amount over up to 100 shares exactly as largest remainder says, ties included', () => {
    const shareLists = fc.uniqueArray(participantIdArb, { minLength: 1, maxLength: 100, size: 'max' }).chain(sharesOf);
    const amounts = fc.oneof(fc.bigInt({ min: 0n, max: 200n }), fc.bigInt({ min: 0n, max: 10n ** 21n - 1n }));
    fc.assert(
      fc.property(amounts, shareLists, (amount, shares) => {
        const parts = allocateParts(
          amount,
          shares.map(({ participantId, basisPoints }) => ({ id: participantId, basisPoints })),
        );
        expect(
          parts.map(({ id, basisPoints, amount: paid, roundingUnits }) => ({ participantId: id, basisPoints, paid, roundingUnits })),
        ).toEqual(largestRemainder(amount, shares));
      }),
      { numRuns: 300 },
    );
  });

  it('sums the periods of a scenario exactly, participant by participant', () => {
    fc.assert(
      fc.property(scenarios, (content) => {
        const scenario = validated(content);
        const periods = scenario.periods.map(({ periodId }) => oraclePeriod(scenario, periodId));
        const settlement = settleScenario(scenario);
        expect(settlement.distributable).toBe(periods.reduce((sum, period) => sum + period.distributable, 0n));
        for (const { participantId, total } of settlement.participants) {
          expect(total).toBe(periods.reduce((sum, period) => sum + period.totals.get(participantId)!, 0n));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('writes every amount of the wire form and of the explanation as the exact decimal of its minor units', () => {
    fc.assert(
      fc.property(scenarios, (content) => {
        const scenario = validated(content);
        const digits = minorDigitsOf(scenario.currency)!;
        const settlement = settleScenario(scenario);
        const formatted = formatSettlement(settlement);
        expect(formatted.distributable).toBe(decimalOf(settlement.distributable, digits));
        formatted.participants.forEach(({ total }, index) => {
          expect(minorOf(total, digits)).toBe(settlement.participants[index]!.total);
        });
        const steps = explainSettlement(settlement);
        const overall = steps.at(-1)!;
        expect(overall.kind === 'totals' && overall.participants.map(({ total }) => total)).toEqual(
          settlement.participants.map(({ total }) => decimalOf(total, digits)),
        );
        // Every sentence that names a participant's amount names the exact one.
        for (const step of steps) {
          if (step.kind !== 'totals') continue;
          for (const { participantId, total } of step.participants)
            expect(step.text.en).toContain(`${participantId} ${total} ${scenario.currency}`);
        }
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    [
      'a tie of four equal shares over 5 yen: the one leftover yen goes to "a-b", first in UTF-16 order, not to the first listed',
      {
        currency: 'JPY',
        periods: [{ periodId: 'p-0', revenue: '5', costs: '0' }],
        participants: ['aa', 'a0', 'a-b', 'b'],
        tiers: [
          {
            tierId: 'rest',
            kind: 'percentage',
            shares: sharesOfPairs([
              ['aa', 2500],
              ['a0', 2500],
              ['a-b', 2500],
              ['b', 2500],
            ]),
          },
        ],
      },
    ],
    [
      'a fixed tier larger than the revenue, then a capped tier and 18-digit amounts in a three-digit currency',
      {
        currency: 'KWD',
        periods: [{ periodId: 'p-0', revenue: '999999999999999999.999', costs: '0.001' }],
        participants: ['a', 'b', 'c'],
        tiers: [
          { tierId: 'fixed-0', kind: 'fixed', allocations: [{ participantId: 'a', amount: '1' }] },
          {
            tierId: 'capped-0',
            kind: 'percentage',
            capAmount: '3',
            shares: sharesOfPairs([
              ['a', 3333],
              ['b', 3333],
              ['c', 3334],
            ]),
          },
          { tierId: 'rest', kind: 'percentage', shares: [{ participantId: 'c', basisPoints: 10000 }] },
        ],
      },
    ],
  ])('agrees with the oracle on %s', (_case, outline) => {
    const label = { en: 'Tier', 'zh-Hans': '层级' };
    const content = {
      ...outline,
      participants: outline.participants.map((participantId) => ({
        participantId,
        name: { en: participantId, 'zh-Hans': participantId },
        legalEntityId: `LEI-${participantId}`,
      })),
      tiers: outline.tiers.map((tier) => ({ ...tier, label })),
    } as ScenarioContent;
    expectEngineMatchesOracle(content);
  });
});
