import fc from 'fast-check';
import { explainSettlement, formatAmount, settlePeriod, settleScenario, type PeriodSettlement } from '../src';
import { studioScenario, thinFeesScenario, yenScenario } from './support/scenarios';
import { validScenarios } from './support/valid-scenarios';

describe('explainSettlement', () => {
  it('retells a period step by step: distributable, fixed payment, capped split with overflow, rounding, totals', () => {
    const steps = explainSettlement(settlePeriod(studioScenario(), '2026-02'));
    expect(steps.map((step) => step.kind)).toEqual(['distributable', 'fixed_payment', 'percentage_split', 'percentage_split', 'totals']);
    expect(steps.map((step) => step.text.en)).toEqual([
      'Period 2026-02: revenue 12000.00 EUR less costs 2500.01 EUR leaves 9499.99 EUR to distribute',
      'Tier platform-fee (fixed) pays 500.00 EUR to platform',
      'Tier investor-pool (percentage, cap 1000.00 EUR): 1000.00 EUR of the remaining 8999.99 EUR split 50/50 by basis points: ' +
        'alice 500.00 EUR, bob 500.00 EUR; 7999.99 EUR passes to the next tier',
      'Tier revenue-share (percentage): remaining 7999.99 EUR split 60/40 by basis points: alice 4799.99 EUR, bob 3200.00 EUR; ' +
        '1 minor unit of rounding went to bob (largest remainder)',
      'Period 2026-02 totals: platform 500.00 EUR, alice 5299.99 EUR, bob 3700.00 EUR; together 9499.99 EUR, exactly the distributable amount',
    ]);
    expect(steps.map((step) => step.text['zh-Hans'])).toEqual([
      '期间 2026-02：收入 12000.00 EUR 减去成本 2500.01 EUR，可分配金额为 9499.99 EUR',
      '层级 platform-fee（固定）向 platform 支付 500.00 EUR',
      '层级 investor-pool（百分比，上限 1000.00 EUR）：剩余 8999.99 EUR 中的 1000.00 EUR 按基点 50/50 分配：' +
        'alice 500.00 EUR，bob 500.00 EUR；7999.99 EUR 转入下一层级',
      '层级 revenue-share（百分比）：剩余 7999.99 EUR 按基点 60/40 分配：alice 4799.99 EUR，bob 3200.00 EUR；' +
        '1 个最小货币单位的舍入差额按最大余数法分给 bob',
      '期间 2026-02 合计：platform 500.00 EUR，alice 5299.99 EUR，bob 3700.00 EUR；共计 9499.99 EUR，与可分配金额完全相等',
    ]);
  });

  it('gives each step machine-readable facts with decimal amounts', () => {
    const [, , , split] = explainSettlement(settlePeriod(studioScenario(), '2026-02'));
    expect(split).toMatchObject({
      kind: 'percentage_split',
      currency: 'EUR',
      periodId: '2026-02',
      tierId: 'revenue-share',
      available: '7999.99',
      capAmount: null,
      split: '7999.99',
      passedOn: '0.00',
      shares: [
        { participantId: 'alice', basisPoints: 6000, paid: '4799.99', roundingUnits: 0 },
        { participantId: 'bob', basisPoints: 4000, paid: '3200.00', roundingUnits: 1 },
      ],
    });
    expect(() => JSON.stringify(split)).not.toThrow();
  });

  it('says when a fixed payment is cut short and when nothing is left to split', () => {
    const steps = explainSettlement(settlePeriod(studioScenario(), '2026-Q2'));
    expect(steps.slice(1, 3).map((step) => step.text)).toEqual([
      {
        en: 'Tier platform-fee (fixed) pays 300.00 EUR to platform of 500.00 EUR due; only 300.00 EUR remained',
        'zh-Hans': '层级 platform-fee（固定）向 platform 支付 300.00 EUR（应付 500.00 EUR，仅剩 300.00 EUR）',
      },
      {
        en: 'Tier investor-pool (percentage, cap 1000.00 EUR): nothing remains to split',
        'zh-Hans': '层级 investor-pool（百分比，上限 1000.00 EUR）：没有剩余金额可分配',
      },
    ]);
  });

  it('names every receiver of rounding units in yen', () => {
    const steps = explainSettlement(settlePeriod(yenScenario(), 'launch-month'));
    expect(steps[2]!.text).toEqual({
      en:
        'Tier creators (percentage): remaining 99000 JPY split 33.33/33.33/33.34 by basis points: aki 32997 JPY, ben 32997 JPY, chi 33006 JPY; ' +
        '2 minor units of rounding went to aki and ben, one each (largest remainder)',
      'zh-Hans':
        '层级 creators（百分比）：剩余 99000 JPY 按基点 33.33/33.33/33.34 分配：aki 32997 JPY，ben 32997 JPY，chi 33006 JPY；' +
        '2 个最小货币单位的舍入差额按最大余数法分给 aki、ben（每人 1 个）',
    });
  });

  it('explains a loss period and a whole scenario, ending with the totals over all periods', () => {
    const scenario = studioScenario();
    scenario.periods.push({ periodId: 'slump', revenue: '100.00', costs: '250.00' });
    const steps = explainSettlement(settleScenario(scenario));
    expect(steps.find((step) => step.kind === 'distributable' && step.periodId === 'slump')!.text).toEqual({
      en: 'Period slump: costs 250.00 EUR exceed revenue 100.00 EUR, so nothing is distributed (a loss is not carried forward)',
      'zh-Hans': '期间 slump：成本 250.00 EUR 超过收入 100.00 EUR，本期无可分配金额（亏损不结转）',
    });
    expect(steps.at(-1)).toMatchObject({
      kind: 'totals',
      periodId: null,
      distributable: '19799.99',
      text: {
        en: 'Totals over all 4 periods: platform 1300.00 EUR, alice 10899.99 EUR, bob 7600.00 EUR; together 19799.99 EUR, exactly the distributable amount',
        'zh-Hans': '全部 4 个期间合计：platform 1300.00 EUR，alice 10899.99 EUR，bob 7600.00 EUR；共计 19799.99 EUR，与可分配金额完全相等',
      },
    });
  });

  it('tells for each fixed payment what remained before it, down to nothing', () => {
    const scenario = thinFeesScenario();
    const fixed = explainSettlement(settlePeriod(scenario, 'thin')).filter((step) => step.kind === 'fixed_payment');
    expect(fixed.map(({ text, ...facts }) => [facts, text.en])).toEqual([
      [
        {
          kind: 'fixed_payment',
          currency: 'EUR',
          periodId: 'thin',
          tierId: 'fees',
          participantId: 'platform',
          due: '500.00',
          paid: '500.00',
          available: '700.00',
        },
        'Tier fees (fixed) pays 500.00 EUR to platform',
      ],
      [
        {
          kind: 'fixed_payment',
          currency: 'EUR',
          periodId: 'thin',
          tierId: 'fees',
          participantId: 'alice',
          due: '300.00',
          paid: '200.00',
          available: '200.00',
        },
        'Tier fees (fixed) pays 200.00 EUR to alice of 300.00 EUR due; only 200.00 EUR remained',
      ],
      [
        {
          kind: 'fixed_payment',
          currency: 'EUR',
          periodId: 'thin',
          tierId: 'fees',
          participantId: 'bob',
          due: '100.00',
          paid: '0.00',
          available: '0.00',
        },
        'Tier fees (fixed) pays nothing to bob of 100.00 EUR due; nothing remained',
      ],
    ]);
  });

  it('says nothing passes on from a capped tier whose cap is not reached', () => {
    // 1200.00 − 500.00 fee = 700.00, under the pool's cap of 1000.00: the pool splits all of it.
    const scenario = studioScenario();
    scenario.periods = [{ periodId: 'quiet', revenue: '1200.00', costs: '0.00' }];
    const [, , pool, rest] = explainSettlement(settlePeriod(scenario, 'quiet'));
    expect(pool!.text).toEqual({
      en: 'Tier investor-pool (percentage, cap 1000.00 EUR): remaining 700.00 EUR split 50/50 by basis points: alice 350.00 EUR, bob 350.00 EUR',
      'zh-Hans': '层级 investor-pool（百分比，上限 1000.00 EUR）：剩余 700.00 EUR 按基点 50/50 分配：alice 350.00 EUR，bob 350.00 EUR',
    });
    expect(rest!.text.en).toBe('Tier revenue-share (percentage): nothing remains to split');
  });

  it('calls a period whose costs equal its revenue a break-even with nothing to distribute, not a loss', () => {
    const scenario = studioScenario();
    scenario.periods = [{ periodId: 'even', revenue: '250.00', costs: '250.00' }];
    const [first] = explainSettlement(settlePeriod(scenario, 'even'));
    expect(first!.text).toEqual({
      en: 'Period even: revenue 250.00 EUR less costs 250.00 EUR leaves 0.00 EUR to distribute',
      'zh-Hans': '期间 even：收入 250.00 EUR 减去成本 250.00 EUR，可分配金额为 0.00 EUR',
    });
  });
});

/** The facts an explanation of `settlement` must state, worked out from the settlement alone. */
function factsOf(settlement: PeriodSettlement): unknown[] {
  const { currency, periodId } = settlement;
  const money = (minor: bigint) => formatAmount(minor, currency);
  return [
    {
      kind: 'distributable',
      currency,
      periodId,
      revenue: money(settlement.revenue),
      costs: money(settlement.costs),
      distributable: money(settlement.distributable),
    },
    ...settlement.tiers.flatMap((tier): unknown[] => {
      if (tier.kind === 'fixed') {
        return tier.payments.map((payment, index) => ({
          kind: 'fixed_payment',
          currency,
          periodId,
          tierId: tier.tierId,
          participantId: payment.participantId,
          due: money(payment.due),
          paid: money(payment.paid),
          available: money(tier.available - tier.payments.slice(0, index).reduce((sum, earlier) => sum + earlier.paid, 0n)),
        }));
      }
      return [
        {
          kind: 'percentage_split',
          currency,
          periodId,
          tierId: tier.tierId,
          available: money(tier.available),
          capAmount: tier.capAmount === null ? null : money(tier.capAmount),
          split: money(tier.paid),
          passedOn: money(tier.passedOn),
          shares: tier.payments.map(({ participantId, basisPoints, paid, roundingUnits }) => ({
            participantId,
            basisPoints,
            paid: money(paid),
            roundingUnits,
          })),
        },
      ];
    }),
    {
      kind: 'totals',
      currency,
      periodId,
      distributable: money(settlement.distributable),
      participants: settlement.participants.map(({ participantId, total }) => ({ participantId, total: money(total) })),
    },
  ];
}

describe('explainSettlement, for any valid scenario', () => {
  it('states exactly the settled amounts, and says a split passes something on, rounds or follows a loss only when it does', () => {
    fc.assert(
      fc.property(validScenarios, (scenario) => {
        for (const { periodId } of scenario.periods) {
          const settlement = settlePeriod(scenario, periodId);
          const steps = explainSettlement(settlement);
          expect(steps.map(({ text: _, ...facts }) => facts)).toEqual(factsOf(settlement));
          const [distributable] = steps;
          expect(distributable!.text.en.includes('exceed')).toBe(settlement.costs > settlement.revenue);
          const splits = steps.filter((step) => step.kind === 'percentage_split');
          for (const step of splits) {
            const { en } = step.text;
            const moving = step.available !== formatAmount(0n, scenario.currency);
            expect(en.includes('passes to the next tier')).toBe(moving && step.passedOn !== formatAmount(0n, scenario.currency));
            expect(en.includes('of rounding went to')).toBe(moving && step.shares.some((share) => share.roundingUnits > 0));
            if (moving) for (const share of step.shares) expect(en).toContain(`${share.participantId} ${share.paid} ${scenario.currency}`);
          }
        }
      }),
    );
  });
});
