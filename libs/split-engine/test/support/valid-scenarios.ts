// Random valid scenarios for property specs.
import fc from 'fast-check';
import { formatAmount, minorDigitsOf, type ScenarioContent, type Tier } from '../../src';

/**
 * Valid scenarios with random currencies, amounts, fixed tiers, capped tiers and share sets; the
 * participants are listed in a random order, and some of them may have no share or allocation at all.
 */
export const validScenarios = fc.constantFrom('EUR', 'JPY', 'KWD').chain((currency) => {
  const digits = minorDigitsOf(currency)!;
  const money = (max: bigint) => fc.bigInt({ min: 0n, max }).map((minor) => formatAmount(minor, currency));
  const participantIds = ['ann', 'bea', 'cal', 'dev', 'eli'];
  const shares = fc.uniqueArray(fc.integer({ min: 1, max: 9999 }), { maxLength: participantIds.length - 1 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 10000];
    return points.slice(1).map((point, index) => ({ participantId: participantIds[index]!, basisPoints: point - points[index]! }));
  });
  const fixedTier = fc
    .subarray(participantIds, { minLength: 1 })
    .chain((ids) => fc.tuple(...ids.map((id) => money(10n ** BigInt(digits + 4)).map((amount) => ({ participantId: id, amount })))));
  const cap = fc.bigInt({ min: 1n, max: 10n ** BigInt(digits + 5) }).map((minor) => formatAmount(minor, currency));
  return fc
    .record({
      periods: fc.array(fc.record({ revenue: money(10n ** BigInt(digits + 6)), costs: money(10n ** BigInt(digits + 5)) }), {
        minLength: 1,
        maxLength: 3,
      }),
      fixed: fc.array(fixedTier, { maxLength: 3 }),
      capped: fc.array(fc.tuple(shares, cap), { maxLength: 3 }),
      last: shares,
      listed: fc.shuffledSubarray(participantIds, { minLength: participantIds.length, maxLength: participantIds.length }),
    })
    .map((parts) => scenarioOf(currency, parts));
});

/** The parts of a generated scenario: fixed tiers first, then capped splits, then the uncapped rest. */
export interface ScenarioParts {
  periods: { revenue: string; costs: string }[];
  fixed: { participantId: string; amount: string }[][];
  capped: [{ participantId: string; basisPoints: number }[], string][];
  last: { participantId: string; basisPoints: number }[];
  /** Every participant id, in the order the scenario lists them. */
  listed: string[];
}

export function scenarioOf(currency: string, { periods, fixed, capped, last, listed }: ScenarioParts): ScenarioContent {
  const label = { en: 'Tier', 'zh-Hans': '层级' };
  const tiers: Tier[] = [
    ...fixed.map((allocations, i): Tier => ({ tierId: `fixed-${i}`, kind: 'fixed', label, allocations })),
    ...capped.map(([shares, capAmount], i): Tier => ({ tierId: `capped-${i}`, kind: 'percentage', label, shares, capAmount })),
    { tierId: 'rest', kind: 'percentage', label, shares: last },
  ];
  return {
    currency,
    periods: periods.map((period, i) => ({ periodId: `p-${i}`, ...period })),
    participants: listed.map((participantId) => ({
      participantId,
      name: { en: participantId, 'zh-Hans': participantId },
      legalEntityId: `LEI-${participantId}`,
    })),
    tiers,
  };
}
