import { allocateParts } from '../allocation/allocate';
import { SplitEngineError } from '../errors';
import { parseAmount } from '../money/decimal-amount';
import type { FixedTier, PercentageTier, ScenarioContent } from '../scenario/scenario-content';
import type { FixedTierSettlement, ParticipantTotal, PercentageTierSettlement, PeriodSettlement, TierSettlement } from './settlement';

/**
 * Runs the tiers over one period: fixed tiers pay their amounts in order from what remains, then
 * percentage tiers split what remains (each up to its cap) by basis points. Expects a validated
 * scenario; throws SplitEngineError for an unknown period or content that does not hold together.
 */
export function settlePeriod(scenario: ScenarioContent, periodId: string): PeriodSettlement {
  const period = scenario.periods.find((candidate) => candidate.periodId === periodId);
  if (period === undefined) throw new SplitEngineError('unknown_period', `the scenario has no period "${periodId}"`);
  const { currency } = scenario;
  const revenue = parseAmount(period.revenue, currency);
  const costs = parseAmount(period.costs, currency);
  const distributable = revenue > costs ? revenue - costs : 0n;

  let remaining = distributable;
  const tiers: TierSettlement[] = scenario.tiers.map((tier) => {
    const settled = tier.kind === 'fixed' ? settleFixedTier(tier, remaining, currency) : settlePercentageTier(tier, remaining, currency);
    remaining = settled.passedOn;
    return settled;
  });
  if (remaining !== 0n) {
    throw new SplitEngineError(
      'invalid_scenario',
      `${remaining} minor units were left unallocated: the last tier must be an uncapped percentage tier`,
    );
  }
  return { kind: 'period', currency, periodId, revenue, costs, distributable, tiers, participants: totalsOf(scenario, tiers) };
}

function settleFixedTier(tier: FixedTier, available: bigint, currency: string): FixedTierSettlement {
  let remaining = available;
  const payments = tier.allocations.map((allocation) => {
    const due = parseAmount(allocation.amount, currency);
    const paid = due < remaining ? due : remaining;
    remaining -= paid;
    return { participantId: allocation.participantId, due, paid };
  });
  return { tierId: tier.tierId, kind: 'fixed', label: tier.label, available, paid: available - remaining, passedOn: remaining, payments };
}

function settlePercentageTier(tier: PercentageTier, available: bigint, currency: string): PercentageTierSettlement {
  const capAmount = tier.capAmount === undefined ? null : parseAmount(tier.capAmount, currency);
  const flowing = capAmount !== null && capAmount < available ? capAmount : available;
  const parts = allocateParts(
    flowing,
    tier.shares.map((share) => ({ id: share.participantId, basisPoints: share.basisPoints })),
  );
  const payments = parts.map((part) => ({
    participantId: part.id,
    basisPoints: part.basisPoints,
    paid: part.amount,
    roundingUnits: part.roundingUnits,
  }));
  return {
    tierId: tier.tierId,
    kind: 'percentage',
    label: tier.label,
    available,
    paid: flowing,
    passedOn: available - flowing,
    capAmount,
    payments,
  };
}

function totalsOf(scenario: ScenarioContent, tiers: readonly TierSettlement[]): ParticipantTotal[] {
  const totals = new Map(scenario.participants.map((participant) => [participant.participantId, 0n]));
  for (const tier of tiers) {
    for (const payment of tier.payments) totals.set(payment.participantId, (totals.get(payment.participantId) ?? 0n) + payment.paid);
  }
  return [...totals].map(([participantId, total]) => ({ participantId, total }));
}
