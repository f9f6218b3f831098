// Example scenarios whose settlements are worked out by hand in the specs.
import type { ScenarioContent } from '../../src';

/**
 * EUR; a fixed platform fee of 500.00, an investor pool of 50/50 capped at 1000.00 per period,
 * then a 60/40 revenue share of the rest.
 */
export function studioScenario(): ScenarioContent {
  return {
    currency: 'EUR',
    periods: [
      { periodId: '2026-01', revenue: '10000.00', costs: '0.00' },
      { periodId: '2026-02', revenue: '12000.00', costs: '2500.01' },
      { periodId: '2026-Q2', revenue: '300.00', costs: '0' },
    ],
    participants: [
      {
        participantId: 'platform',
        name: { en: 'Platform', 'zh-Hans': '平台' },
        legalEntityId: 'LEI-PLATFORM-0001',
        role: 'platform-operator',
      },
      {
        participantId: 'alice',
        name: { en: 'Alice Studio', 'zh-Hans': '爱丽丝工作室' },
        legalEntityId: 'LEI-ALICE-0002',
        role: 'revenue-participant',
      },
      { participantId: 'bob', name: { en: 'Bob Games', 'zh-Hans': '鲍勃游戏' }, legalEntityId: 'LEI-BOB-0003' },
    ],
    tiers: [
      {
        tierId: 'platform-fee',
        kind: 'fixed',
        label: { en: 'Platform fee', 'zh-Hans': '平台费' },
        allocations: [{ participantId: 'platform', amount: '500.00' }],
      },
      {
        tierId: 'investor-pool',
        kind: 'percentage',
        label: { en: 'Investor pool', 'zh-Hans': '投资人池' },
        shares: [
          { participantId: 'alice', basisPoints: 5000 },
          { participantId: 'bob', basisPoints: 5000 },
        ],
        capAmount: '1000.00',
      },
      {
        tierId: 'revenue-share',
        kind: 'percentage',
        label: { en: 'Revenue share', 'zh-Hans': '收入分成' },
        shares: [
          { participantId: 'alice', basisPoints: 6000 },
          { participantId: 'bob', basisPoints: 4000 },
        ],
      },
    ],
  };
}

/** JPY (no minor digits): a fixed 1000 to the platform, then a three-way split 3333/3333/3334. */
export function yenScenario(): ScenarioContent {
  const person = (participantId: string, en: string, zh: string) => ({
    participantId,
    name: { en, 'zh-Hans': zh },
    legalEntityId: `LEI-${participantId}`,
  });
  return {
    currency: 'JPY',
    periods: [{ periodId: 'launch-month', revenue: '100000', costs: '0' }],
    participants: [
      person('platform', 'Platform', '平台'),
      person('aki', 'Aki', '阿琪'),
      person('ben', 'Ben', '阿本'),
      person('chi', 'Chi', '小智'),
    ],
    tiers: [
      {
        tierId: 'platform-fee',
        kind: 'fixed',
        label: { en: 'Platform fee', 'zh-Hans': '平台费' },
        allocations: [{ participantId: 'platform', amount: '1000' }],
      },
      {
        tierId: 'creators',
        kind: 'percentage',
        label: { en: 'Creators', 'zh-Hans': '创作者' },
        shares: [
          { participantId: 'aki', basisPoints: 3333 },
          { participantId: 'ben', basisPoints: 3333 },
          { participantId: 'chi', basisPoints: 3334 },
        ],
      },
    ],
  };
}

/** The studio with 700.00 to distribute in period `thin` and fixed fees of 500.00, 300.00 and 100.00, paid in that order. */
export function thinFeesScenario(): ScenarioContent {
  const scenario = studioScenario();
  scenario.periods = [{ periodId: 'thin', revenue: '700.00', costs: '0.00' }];
  scenario.tiers[0] = {
    tierId: 'fees',
    kind: 'fixed',
    label: { en: 'Fees', 'zh-Hans': '费用' },
    allocations: [
      { participantId: 'platform', amount: '500.00' },
      { participantId: 'alice', amount: '300.00' },
      { participantId: 'bob', amount: '100.00' },
    ],
  };
  return scenario;
}

/** A deep copy as `unknown`, to break on purpose in validation specs. */
export function raw(
  scenario: ScenarioContent,
): Record<string, unknown> & { periods: unknown[]; participants: unknown[]; tiers: unknown[] } {
  return structuredClone(scenario) as unknown as Record<string, unknown> & {
    periods: unknown[];
    participants: unknown[];
    tiers: unknown[];
  };
}
