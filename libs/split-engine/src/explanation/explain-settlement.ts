import { formatAmount } from '../money/decimal-amount';
import type { ParticipantTotal, PeriodSettlement, ScenarioSettlement, TierSettlement } from '../settlement/settlement';
import type { ExplanationStep, TotalsFacts } from './explanation-step';
import { distributableText, fixedPaymentText, percentageSplitText, totalsText } from './explanation-texts';

/**
 * The settlement retold as ordered steps: what was distributable, each tier's payments in order,
 * and the totals. A scenario settlement is explained period by period, then over all periods.
 */
export function explainSettlement(settlement: PeriodSettlement | ScenarioSettlement): ExplanationStep[] {
  if (settlement.kind === 'period') return explainPeriod(settlement);
  const totals = totalsFacts(settlement.currency, null, settlement.distributable, settlement.participants);
  return [...settlement.periods.flatMap(explainPeriod), { ...totals, text: totalsText(totals, settlement.periods.length) }];
}

function explainPeriod(period: PeriodSettlement): ExplanationStep[] {
  const { currency, periodId } = period;
  const format = (minor: bigint): string => formatAmount(minor, currency);
  const distributable = {
    kind: 'distributable' as const,
    currency,
    periodId,
    revenue: format(period.revenue),
    costs: format(period.costs),
    distributable: format(period.distributable),
  };
  const totals = totalsFacts(currency, periodId, period.distributable, period.participants);
  return [
    { ...distributable, text: distributableText(distributable, period.costs > period.revenue) },
    ...period.tiers.flatMap((tier) => explainTier(tier, currency, periodId)),
    { ...totals, text: totalsText(totals, 1) },
  ];
}

function explainTier(tier: TierSettlement, currency: string, periodId: string): ExplanationStep[] {
  const format = (minor: bigint): string => formatAmount(minor, currency);
  if (tier.kind === 'fixed') {
    let available = tier.available;
    return tier.payments.map((payment) => {
      const facts = {
        kind: 'fixed_payment' as const,
        currency,
        periodId,
        tierId: tier.tierId,
        participantId: payment.participantId,
        due: format(payment.due),
        paid: format(payment.paid),
        available: format(available),
      };
      available -= payment.paid;
      return { ...facts, text: fixedPaymentText(facts, payment.paid === payment.due, payment.paid === 0n) };
    });
  }
  const facts = {
    kind: 'percentage_split' as const,
    currency,
    periodId,
    tierId: tier.tierId,
    available: format(tier.available),
    capAmount: tier.capAmount === null ? null : format(tier.capAmount),
    split: format(tier.paid),
    passedOn: format(tier.passedOn),
    shares: tier.payments.map((payment) => ({
      participantId: payment.participantId,
      basisPoints: payment.basisPoints,
      paid: format(payment.paid),
      roundingUnits: payment.roundingUnits,
    })),
  };
  return [{ ...facts, text: percentageSplitText(facts, tier.available === 0n, tier.passedOn > 0n) }];
}

function totalsFacts(
  currency: string,
  periodId: string | null,
  distributable: bigint,
  participants: readonly ParticipantTotal[],
): TotalsFacts {
  return {
    kind: 'totals',
    currency,
    periodId,
    distributable: formatAmount(distributable, currency),
    participants: participants.map(({ participantId, total }) => ({ participantId, total: formatAmount(total, currency) })),
  };
}
