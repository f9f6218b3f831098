// The content of an Operating Scenario revision: assumptions per period and the split rules.
// This is the wire format stored by standards-api; amounts are decimal strings in `currency`.
import type { Localized } from '@stdreg/contracts';

/** A decimal string in the currency's major unit, e.g. "1234.50"; never negative in a scenario. */
export type DecimalAmount = string;

export interface ScenarioContent {
  /** ISO 4217 code; every amount in the scenario is in this currency. */
  currency: string;
  /** 1..120 periods with unique ids. */
  periods: ScenarioPeriod[];
  /** 1..100 participants with unique ids. */
  participants: Participant[];
  /** 1..20 tiers, applied in order: fixed tiers first, then percentage tiers; the last is an uncapped percentage tier. */
  tiers: Tier[];
}

export interface ScenarioPeriod {
  /** "2026-01", "2026-Q1" or another kebab-case id. */
  periodId: string;
  revenue: DecimalAmount;
  costs: DecimalAmount;
}

export interface Participant {
  participantId: string;
  name: Localized;
  legalEntityId: string;
  role?: string;
}

export type Tier = FixedTier | PercentageTier;
export type TierKind = Tier['kind'];

/** Pays each allocation in order from what remains, each capped by what remains. */
export interface FixedTier {
  tierId: string;
  kind: 'fixed';
  label: Localized;
  allocations: FixedAllocation[];
}

export interface FixedAllocation {
  participantId: string;
  /** Due every period. */
  amount: DecimalAmount;
}

/** Splits what remains (up to `capAmount` per period) by basis points; the excess flows on to the next tier. */
export interface PercentageTier {
  tierId: string;
  kind: 'percentage';
  label: Localized;
  /** Sum exactly 10000. */
  shares: TierShare[];
  capAmount?: DecimalAmount;
}

export interface TierShare {
  participantId: string;
  /** Integer 0..10000. */
  basisPoints: number;
}
