// One change between two versions of the split rules (participants and tiers), as data plus a sentence.
import type { Localized } from '@stdreg/contracts';
import type { DecimalAmount, TierKind } from '../scenario/scenario-content';

/** An amount with its currency, so a change across a currency switch stays unambiguous. */
export interface MoneyValue {
  amount: DecimalAmount;
  currency: string;
}

export type ParticipantDetail = 'name' | 'legalEntityId' | 'role';

export type RuleChangeFacts =
  | { kind: 'currency_changed'; before: string; after: string }
  | { kind: 'participant_added'; participantId: string }
  | { kind: 'participant_removed'; participantId: string }
  | { kind: 'participant_details_changed'; participantId: string; details: ParticipantDetail[] }
  /** `index` is the 0-based position in the tier list (of `after` when added, of `before` when removed). */
  | { kind: 'tier_added'; tierId: string; tierKind: TierKind; index: number }
  | { kind: 'tier_removed'; tierId: string; tierKind: TierKind; index: number }
  /** Reported for the fewest tiers whose moves explain the new order. */
  | { kind: 'tier_moved'; tierId: string; fromIndex: number; toIndex: number }
  | { kind: 'tier_kind_changed'; tierId: string; before: TierKind; after: TierKind }
  | { kind: 'tier_label_changed'; tierId: string; before: Localized; after: Localized }
  /** null: the participant has no share in that version of the tier. */
  | { kind: 'share_changed'; tierId: string; participantId: string; before: number | null; after: number | null }
  /** null: no cap. */
  | { kind: 'cap_changed'; tierId: string; before: MoneyValue | null; after: MoneyValue | null }
  /** null: no fixed allocation to that participant. */
  | { kind: 'fixed_amount_changed'; tierId: string; participantId: string; before: MoneyValue | null; after: MoneyValue | null }
  /** Fixed allocations are paid in order, so their order is part of the rules. */
  | { kind: 'allocation_order_changed'; tierId: string; before: string[]; after: string[] };

export type RuleChangeKind = RuleChangeFacts['kind'];

export type RuleChange = RuleChangeFacts & { description: Localized };
