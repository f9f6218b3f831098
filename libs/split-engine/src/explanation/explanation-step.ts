// One step of a settlement explanation: the facts (JSON-ready, amounts as decimal strings) and a sentence in both locales.
import type { Localized } from '@stdreg/contracts';
import type { DecimalAmount } from '../scenario/scenario-content';

export type ExplanationStep = ExplanationFacts & { text: Localized };

export type ExplanationFacts = DistributableFacts | FixedPaymentFacts | PercentageSplitFacts | TotalsFacts;

export interface DistributableFacts {
  kind: 'distributable';
  currency: string;
  periodId: string;
  revenue: DecimalAmount;
  costs: DecimalAmount;
  distributable: DecimalAmount;
}

export interface FixedPaymentFacts {
  kind: 'fixed_payment';
  currency: string;
  periodId: string;
  tierId: string;
  participantId: string;
  due: DecimalAmount;
  paid: DecimalAmount;
  /** What remained before this payment. */
  available: DecimalAmount;
}

export interface PercentageSplitFacts {
  kind: 'percentage_split';
  currency: string;
  periodId: string;
  tierId: string;
  available: DecimalAmount;
  capAmount: DecimalAmount | null;
  split: DecimalAmount;
  passedOn: DecimalAmount;
  shares: { participantId: string; basisPoints: number; paid: DecimalAmount; roundingUnits: number }[];
}

export interface TotalsFacts {
  kind: 'totals';
  currency: string;
  /** null for the totals over all periods of a scenario settlement. */
  periodId: string | null;
  distributable: DecimalAmount;
  participants: { participantId: string; total: DecimalAmount }[];
}
