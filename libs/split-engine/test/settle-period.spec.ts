import fc from 'fast-check';
import { formatSettlement, settlePeriod, validateScenario, type Tier } from '../src';
import { studioScenario, thinFeesScenario, yenScenario } from './support/scenarios';
import { validScenarios } from './support/valid-scenarios';

const totals = (settlement: { participants: { participantId: string; total: bigint }[] }) =>
  Object.fromEntries(settlement.participants.map(({ participantId, total }) => [participantId, total]));

describe('settlePeriod', () => {
  it('pays the fixed fee, fills the capped pool and sends the overflow to the next tier', () => {
    // 10000.00 − 500.00 fee = 9500.00; the pool takes its cap of 1000.00 (500.00 each);
    // the remaining 8500.00 is split 60/40: alice 5100.00, bob 3400.00.
    const settlement = settlePeriod(studioScenario(), '2026-01');
    expect(settlement).toMatchObject({
      kind: 'period',
      currency: 'EUR',
      periodId: '2026-01',
      revenue: 1000000n,
      costs: 0n,
      distributable: 1000000n,
    });
    expect(settlement.tiers.map(({ tierId, available, paid, passedOn }) => ({ tierId, available, paid, passedOn }))).toEqual([
      { tierId: 'platform-fee', available: 1000000n, paid: 50000n, passedOn: 950000n },
      { tierId: 'investor-pool', available: 950000n, paid: 100000n, passedOn: 850000n },
      { tierId: 'revenue-share', available: 850000n, paid: 850000n, passedOn: 0n },
    ]);
    expect(totals(settlement)).toEqual({ platform: 50000n, alice: 560000n, bob: 390000n });
  });

  it('deducts costs and gives the rounding unit to the largest remainder', () => {
    // 12000.00 − 2500.01 = 9499.99; after the fee and the pool 7999.99 remains:
    // alice 60% = 4799.994 -> 4799.99, bob 40% = 3199.996 -> 3199.99 + the leftover cent = 3200.00.
    const settlement = settlePeriod(studioScenario(), '2026-02');
    expect(settlement.distributable).toBe(949999n);
    const share = settlement.tiers[2]!;
    expect(share.kind === 'percentage' && share.payments).toEqual([
      { participantId: 'alice', basisPoints: 6000, paid: 479999n, roundingUnits: 0 },
      { participantId: 'bob', basisPoints: 4000, paid: 320000n, roundingUnits: 1 },
    ]);
    expect(totals(settlement)).toEqual({ platform: 50000n, alice: 529999n, bob: 370000n });
  });

  it('caps a fixed tier larger than what remains and leaves nothing for the tiers after it', () => {
    const settlement = settlePeriod(studioScenario(), '2026-Q2');
    const fee = settlement.tiers[0]!;
    expect(fee.kind === 'fixed' && fee.payments).toEqual([{ participantId: 'platform', due: 50000n, paid: 30000n }]);
    expect(settlement.tiers.map((tier) => tier.paid)).toEqual([30000n, 0n, 0n]);
    expect(totals(settlement)).toEqual({ platform: 30000n, alice: 0n, bob: 0n });
  });

  it('pays fixed allocations in order, each capped by what remains', () => {
    const scenario = thinFeesScenario();
    const fee = settlePeriod(scenario, 'thin').tiers[0]!;
    expect(fee.kind === 'fixed' && fee.payments.map((payment) => payment.paid)).toEqual([50000n, 20000n, 0n]);
  });

  it('distributes nothing when costs exceed revenue', () => {
    const scenario = studioScenario();
    scenario.periods = [{ periodId: 'loss', revenue: '100.00', costs: '250.00' }];
    const settlement = settlePeriod(scenario, 'loss');
    expect(settlement.distributable).toBe(0n);
    expect(totals(settlement)).toEqual({ platform: 0n, alice: 0n, bob: 0n });
  });

  it('settles yen in whole units, two leftover yen going to the largest remainders', () => {
    // 100000 − 1000 fee = 99000: 3333 bp -> 32996.7 twice, 3334 bp -> 33006.6; floors leave 2 yen,
    // which go to aki and ben (remainder .7 beats .6).
    const settlement = settlePeriod(yenScenario(), 'launch-month');
    expect(totals(settlement)).toEqual({ platform: 1000n, aki: 32997n, ben: 32997n, chi: 33006n });
    expect(formatSettlement(settlement).participants).toEqual([
      { participantId: 'platform', total: '1000' },
      { participantId: 'aki', total: '32997' },
      { participantId: 'ben', total: '32997' },
      { participantId: 'chi', total: '33006' },
    ]);
  });

  it('lists a participant with no share or allocation with a total of 0, in the order the scenario lists participants', () => {
    const scenario = studioScenario();
    scenario.participants.unshift({ participantId: 'carol', name: { en: 'Carol', 'zh-Hans': '卡罗尔' }, legalEntityId: 'LEI-CAROL' });
    scenario.participants.reverse();
    expect(settlePeriod(scenario, '2026-01').participants).toEqual([
      { participantId: 'bob', total: 390000n },
      { participantId: 'alice', total: 560000n },
      { participantId: 'platform', total: 50000n },
      { participantId: 'carol', total: 0n },
    ]);
  });

  it('refuses rules that would leave minor units unallocated (a capped last tier) rather than drop them', () => {
    // Validation refuses such rules; the engine does not rely on it and never loses an amount silently.
    const scenario = studioScenario();
    scenario.tiers[2] = { ...scenario.tiers[2]!, capAmount: '100.00' } as Tier;
    expect(() => settlePeriod(scenario, '2026-01')).toThrow(
      expect.objectContaining({
        name: 'SplitEngineError',
        code: 'invalid_scenario',
        message: expect.stringContaining('840000 minor units'),
      }),
    );
  });

  it('refuses a period the scenario does not have', () => {
    expect(() => settlePeriod(studioScenario(), '2030-01')).toThrow(expect.objectContaining({ code: 'unknown_period' }));
  });

  it('formats every amount as a decimal string for the wire', () => {
    const formatted = formatSettlement(settlePeriod(studioScenario(), '2026-01'));
    expect(formatted).toMatchObject({ revenue: '10000.00', distributable: '10000.00' });
    expect(formatted.tiers[1]).toMatchObject({ capAmount: '1000.00', available: '9500.00', paid: '1000.00', passedOn: '8500.00' });
    expect(() => JSON.stringify(formatted)).not.toThrow();
  });
});

describe('settlePeriod, for any valid scenario', () => {
  it('pays out exactly the distributable amount, tier by tier and participant by participant', () => {
    fc.assert(
      fc.property(validScenarios, (scenario) => {
        expect(validateScenario(scenario).ok).toBe(true);
        for (const { periodId } of scenario.periods) {
          const settlement = settlePeriod(scenario, periodId);
          const paidByTiers = settlement.tiers.reduce((sum, tier) => sum + tier.paid, 0n);
          const paidToParticipants = settlement.participants.reduce((sum, participant) => sum + participant.total, 0n);
          expect(paidByTiers).toBe(settlement.distributable);
          expect(paidToParticipants).toBe(settlement.distributable);
          for (const tier of settlement.tiers) {
            expect(tier.available).toBe(tier.paid + tier.passedOn);
            expect(tier.payments.reduce((sum, payment) => sum + payment.paid, 0n)).toBe(tier.paid);
            expect(tier.payments.every((payment) => payment.paid >= 0n)).toBe(true);
          }
          // Every listed participant, in the scenario's order, paid or not, with the sum of its payments.
          expect(settlement.participants.map((participant) => participant.participantId)).toEqual(
            scenario.participants.map((participant) => participant.participantId),
          );
          for (const { participantId, total } of settlement.participants) {
            const payments = settlement.tiers
              .flatMap((tier): { participantId: string; paid: bigint }[] => tier.payments)
              .filter((payment) => payment.participantId === participantId);
            expect(total).toBe(payments.reduce((sum, payment) => sum + payment.paid, 0n));
          }
        }
      }),
    );
  });
});
