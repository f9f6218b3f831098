// A draft settlement: what a scenario's rules pay each participant, in bigint minor units of `currency`.
import type { Localized } from '@stdreg/contracts';

export interface PeriodSettlement {
  kind: 'period';
  currency: string;
  periodId: string;
  revenue: bigint;
  costs: bigint;
  /** max(0, revenue − costs): a loss is not carried to later periods. */
  distributable: bigint;
  /** In the scenario's tier order; the paid amounts sum to `distributable`. */
  tiers: TierSettlement[];
  /** Every participant of the scenario, in its order, with what this period paid them (possibly 0). */
  participants: ParticipantTotal[];
}

export type TierSettlement = FixedTierSettlement | PercentageTierSettlement;

interface TierFlow {
  tierId: string;
  label: Localized;
  /** What reached this tier: the distributable amount less what earlier tiers paid. */
  available: bigint;
  /** What this tier paid out. */
  paid: bigint;
  /** available − paid, passed on to the next tier. */
  passedOn: bigint;
}

export interface FixedTierSettlement extends TierFlow {
  kind: 'fixed';
  payments: FixedPayment[];
}

export interface FixedPayment {
  participantId: string;
  /** The fixed amount the rules give. */
  due: bigint;
  /** Less than `due` when not enough remained. */
  paid: bigint;
}

export interface PercentageTierSettlement extends TierFlow {
  kind: 'percentage';
  capAmount: bigint | null;
  payments: SharePayment[];
}

export interface SharePayment {
  participantId: string;
  basisPoints: number;
  paid: bigint;
  /** Minor units (0 or 1) added to the floored exact share by largest-remainder rounding. */
  roundingUnits: number;
}

export interface ParticipantTotal {
  participantId: string;
  total: bigint;
}

export interface ScenarioSettlement {
  kind: 'scenario';
  currency: string;
  periods: PeriodSettlement[];
  revenue: bigint;
  costs: bigint;
  /** The sum of each period's distributable amount. */
  distributable: bigint;
  /** Every participant of the scenario, in its order, with the sum over all periods. */
  participants: ParticipantTotal[];
}
