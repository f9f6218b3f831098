import { explainSettlement, settlePeriod, settleScenario } from '../src';
import { studioScenario, yenScenario } from './support/scenarios';

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
});
