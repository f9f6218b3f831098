import { settleScenario } from '../src';
import { studioScenario } from './support/scenarios';

describe('settleScenario', () => {
  it('settles every period and sums each participant over all of them', () => {
    // 2026-01: platform 500.00, alice 5600.00, bob 3900.00 (10000.00)
    // 2026-02: platform 500.00, alice 5299.99, bob 3700.00 (9499.99)
    // 2026-Q2: platform 300.00                             (300.00)
    const settlement = settleScenario(studioScenario());
    expect(settlement.periods.map((period) => period.periodId)).toEqual(['2026-01', '2026-02', '2026-Q2']);
    expect(settlement).toMatchObject({ kind: 'scenario', currency: 'EUR', revenue: 2230000n, costs: 250001n, distributable: 1979999n });
    expect(settlement.participants).toEqual([
      { participantId: 'platform', total: 130000n },
      { participantId: 'alice', total: 1089999n },
      { participantId: 'bob', total: 760000n },
    ]);
  });
});
