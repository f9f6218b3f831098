import { compareScenarios, type ScenarioContent } from '../src';
import { studioScenario, yenScenario } from './support/scenarios';

/** The studio scenario with the revenue share at 50/50 and an agency instead of the platform taking the fee. */
function evenSplit(): ScenarioContent {
  const scenario = studioScenario();
  scenario.participants[0] = { participantId: 'agency', name: { en: 'Agency', 'zh-Hans': '代理机构' }, legalEntityId: 'LEI-AGENCY' };
  scenario.tiers[0] = {
    tierId: 'platform-fee',
    kind: 'fixed',
    label: { en: 'Platform fee', 'zh-Hans': '平台费' },
    allocations: [{ participantId: 'agency', amount: '500.00' }],
  };
  scenario.tiers[2] = {
    tierId: 'revenue-share',
    kind: 'percentage',
    label: { en: 'Revenue share', 'zh-Hans': '收入分成' },
    shares: [
      { participantId: 'alice', basisPoints: 5000 },
      { participantId: 'bob', basisPoints: 5000 },
    ],
  };
  return scenario;
}

describe('compareScenarios', () => {
  it('puts per-participant totals side by side, by participant id, with differences against the first', () => {
    // Baseline totals: platform 1300.00, alice 10899.99, bob 7600.00.
    // Even split: the 8500.00 and 7999.99 remainders go 50/50: alice 500+4250+500+4000.00 = 9250.00 (the
    // odd cent of 7999.99 goes to alice by id), bob 500+4250+500+3999.99 = 9249.99, agency 1300.00.
    const comparison = compareScenarios([
      { label: 'baseline', scenario: studioScenario() },
      { label: 'even split', scenario: evenSplit() },
    ]);
    expect(comparison.currency).toBe('EUR');
    expect(comparison.scenarios.map(({ label, difference }) => [label, difference.amount])).toEqual([
      ['baseline', '0.00'],
      ['even split', '0.00'],
    ]);
    const table = comparison.participants.map(({ participantId, columns }) => [
      participantId,
      ...columns.map((column) => `${column.present ? '' : '(absent) '}${column.total.amount} ${column.difference.amount}`),
    ]);
    expect(table).toEqual([
      ['agency', '(absent) 0.00 0.00', '1300.00 1300.00'],
      ['alice', '10899.99 0.00', '9250.00 -1649.99'],
      ['bob', '7600.00 0.00', '9249.99 1649.99'],
      ['platform', '1300.00 0.00', '(absent) 0.00 -1300.00'],
    ]);
    expect(comparison.participants[1]!.columns[1]!.difference).toEqual({ minorUnits: -164999n, amount: '-1649.99' });
  });

  it("gives each scenario its distributable amount less the first one's, signed", () => {
    // 1000.00 more revenue in January is 1000.00 more to distribute over the three periods (19799.99).
    const richer = studioScenario();
    richer.periods[0]!.revenue = '11000.00';
    const differences = (first: ScenarioContent, second: ScenarioContent) =>
      compareScenarios([
        { label: 'first', scenario: first },
        { label: 'second', scenario: second },
      ]).scenarios.map(({ distributable, difference }) => [distributable.amount, difference.amount, difference.minorUnits]);
    expect(differences(studioScenario(), richer)).toEqual([
      ['19799.99', '0.00', 0n],
      ['20799.99', '1000.00', 100000n],
    ]);
    expect(differences(richer, studioScenario())).toEqual([
      ['20799.99', '0.00', 0n],
      ['19799.99', '-1000.00', -100000n],
    ]);
  });

  it('shows a participant a scenario lists but pays nothing as present with 0, not as absent', () => {
    const withCarol = studioScenario();
    withCarol.participants.push({ participantId: 'carol', name: { en: 'Carol', 'zh-Hans': '卡罗尔' }, legalEntityId: 'LEI-CAROL' });
    const comparison = compareScenarios([
      { label: 'baseline', scenario: studioScenario() },
      { label: 'with carol', scenario: withCarol },
    ]);
    const carol = comparison.participants.find((participant) => participant.participantId === 'carol')!;
    expect(carol.columns.map(({ label, present, total, difference }) => [label, present, total.amount, difference.amount])).toEqual([
      ['baseline', false, '0.00', '0.00'],
      ['with carol', true, '0.00', '0.00'],
    ]);
  });

  it('takes up to four scenarios and refuses one or five', () => {
    const entry = { label: 'x', scenario: studioScenario() };
    expect(compareScenarios([entry, entry, entry, entry]).scenarios).toHaveLength(4);
    expect(() => compareScenarios([entry])).toThrow(expect.objectContaining({ name: 'SplitEngineError', code: 'comparison_size' }));
    expect(() => compareScenarios([entry, entry, entry, entry, entry])).toThrow(expect.objectContaining({ code: 'comparison_size' }));
  });

  it('refuses scenarios in different currencies', () => {
    expect(() =>
      compareScenarios([
        { label: 'euro', scenario: studioScenario() },
        { label: 'yen', scenario: yenScenario() },
      ]),
    ).toThrow(expect.objectContaining({ code: 'currency_mismatch', message: expect.stringContaining('"yen" is in JPY') }));
  });

  it('refuses a scenario in another currency wherever it stands, not only second', () => {
    const euro = (label: string) => ({ label, scenario: studioScenario() });
    for (const scenarios of [
      [euro('a'), euro('b'), { label: 'yen', scenario: yenScenario() }],
      [euro('a'), euro('b'), euro('c'), { label: 'yen', scenario: yenScenario() }],
    ]) {
      expect(() => compareScenarios(scenarios)).toThrow(
        expect.objectContaining({ code: 'currency_mismatch', message: expect.stringContaining('"yen" is in JPY') }),
      );
    }
  });
});
