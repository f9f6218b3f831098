import type { Localized } from '@stdreg/contracts';
import { formatAmount, parseAmount } from '../money/decimal-amount';
import type { FixedTier, Participant, PercentageTier, ScenarioContent, Tier } from '../scenario/scenario-content';
import { describeRuleChange } from './describe-rule-change';
import type { MoneyValue, ParticipantDetail, RuleChange, RuleChangeFacts } from './rule-change';
import { movedIds } from './tier-moves';

/**
 * The changes to the split rules (currency, participants, tiers) from `before` to `after`, in a
 * stable order: currency, participants removed/added/changed, tiers removed/added/moved, then
 * the changes inside each tier kept, in `after`'s tier order. Period assumptions are not rules and
 * are not compared. Amounts are compared by value ("500.0" equals "500.00"). Expects validated content.
 */
export function diffRuleVersions(before: ScenarioContent, after: ScenarioContent): RuleChange[] {
  const facts: RuleChangeFacts[] = [];
  if (before.currency !== after.currency) facts.push({ kind: 'currency_changed', before: before.currency, after: after.currency });
  facts.push(...diffParticipants(before.participants, after.participants));
  facts.push(...diffTierList(before.tiers, after.tiers));
  const beforeTiers = new Map(before.tiers.map((tier) => [tier.tierId, tier]));
  for (const tier of after.tiers) {
    const previous = beforeTiers.get(tier.tierId);
    if (previous !== undefined) facts.push(...diffTier(previous, before.currency, tier, after.currency));
  }
  return facts.map((fact) => ({ ...fact, description: describeRuleChange(fact) }));
}

function diffParticipants(before: readonly Participant[], after: readonly Participant[]): RuleChangeFacts[] {
  const beforeById = new Map(before.map((participant) => [participant.participantId, participant]));
  const afterIds = new Set(after.map((participant) => participant.participantId));
  const facts: RuleChangeFacts[] = before
    .filter((participant) => !afterIds.has(participant.participantId))
    .map((participant) => ({ kind: 'participant_removed', participantId: participant.participantId }));
  for (const participant of after) {
    const previous = beforeById.get(participant.participantId);
    if (previous === undefined) {
      facts.push({ kind: 'participant_added', participantId: participant.participantId });
      continue;
    }
    const details: ParticipantDetail[] = [];
    if (!sameLocalized(previous.name, participant.name)) details.push('name');
    if (previous.legalEntityId !== participant.legalEntityId) details.push('legalEntityId');
    if (previous.role !== participant.role) details.push('role');
    if (details.length > 0) facts.push({ kind: 'participant_details_changed', participantId: participant.participantId, details });
  }
  return facts;
}

function diffTierList(before: readonly Tier[], after: readonly Tier[]): RuleChangeFacts[] {
  const afterIds = new Set(after.map((tier) => tier.tierId));
  const beforeIds = new Set(before.map((tier) => tier.tierId));
  const facts: RuleChangeFacts[] = [];
  before.forEach((tier, index) => {
    if (!afterIds.has(tier.tierId)) facts.push({ kind: 'tier_removed', tierId: tier.tierId, tierKind: tier.kind, index });
  });
  after.forEach((tier, index) => {
    if (!beforeIds.has(tier.tierId)) facts.push({ kind: 'tier_added', tierId: tier.tierId, tierKind: tier.kind, index });
  });
  const keptBefore = before.map((tier) => tier.tierId).filter((id) => afterIds.has(id));
  const keptAfter = after.map((tier) => tier.tierId).filter((id) => beforeIds.has(id));
  const moved = movedIds(keptBefore, keptAfter);
  after.forEach((tier, toIndex) => {
    if (moved.has(tier.tierId)) {
      const fromIndex = before.findIndex((candidate) => candidate.tierId === tier.tierId);
      facts.push({ kind: 'tier_moved', tierId: tier.tierId, fromIndex, toIndex });
    }
  });
  return facts;
}

function diffTier(before: Tier, beforeCurrency: string, after: Tier, afterCurrency: string): RuleChangeFacts[] {
  const { tierId } = after;
  const facts: RuleChangeFacts[] = [];
  if (before.kind !== after.kind) facts.push({ kind: 'tier_kind_changed', tierId, before: before.kind, after: after.kind });
  if (!sameLocalized(before.label, after.label))
    facts.push({ kind: 'tier_label_changed', tierId, before: before.label, after: after.label });
  if (before.kind === 'percentage' && after.kind === 'percentage') {
    facts.push(...diffPercentageTier(before, beforeCurrency, after, afterCurrency));
  }
  if (before.kind === 'fixed' && after.kind === 'fixed') facts.push(...diffFixedTier(before, beforeCurrency, after, afterCurrency));
  return facts;
}

function diffPercentageTier(
  before: PercentageTier,
  beforeCurrency: string,
  after: PercentageTier,
  afterCurrency: string,
): RuleChangeFacts[] {
  const { tierId } = after;
  const facts: RuleChangeFacts[] = [];
  const capBefore = moneyValue(before.capAmount, beforeCurrency);
  const capAfter = moneyValue(after.capAmount, afterCurrency);
  if (!sameMoney(capBefore, capAfter)) facts.push({ kind: 'cap_changed', tierId, before: capBefore, after: capAfter });
  const sharesBefore = new Map(before.shares.map((share) => [share.participantId, share.basisPoints]));
  const sharesAfter = new Map(after.shares.map((share) => [share.participantId, share.basisPoints]));
  for (const participantId of unionSorted(sharesBefore.keys(), sharesAfter.keys())) {
    const was = sharesBefore.get(participantId) ?? null;
    const is = sharesAfter.get(participantId) ?? null;
    if (was !== is) facts.push({ kind: 'share_changed', tierId, participantId, before: was, after: is });
  }
  return facts;
}

function diffFixedTier(before: FixedTier, beforeCurrency: string, after: FixedTier, afterCurrency: string): RuleChangeFacts[] {
  const { tierId } = after;
  const facts: RuleChangeFacts[] = [];
  const amountsBefore = new Map(before.allocations.map((allocation) => [allocation.participantId, allocation.amount]));
  const amountsAfter = new Map(after.allocations.map((allocation) => [allocation.participantId, allocation.amount]));
  for (const participantId of unionSorted(amountsBefore.keys(), amountsAfter.keys())) {
    const was = moneyValue(amountsBefore.get(participantId), beforeCurrency);
    const is = moneyValue(amountsAfter.get(participantId), afterCurrency);
    if (!sameMoney(was, is)) facts.push({ kind: 'fixed_amount_changed', tierId, participantId, before: was, after: is });
  }
  const orderBefore = before.allocations.map((allocation) => allocation.participantId).filter((id) => amountsAfter.has(id));
  const orderAfter = after.allocations.map((allocation) => allocation.participantId).filter((id) => amountsBefore.has(id));
  if (orderBefore.join('\n') !== orderAfter.join('\n'))
    facts.push({ kind: 'allocation_order_changed', tierId, before: orderBefore, after: orderAfter });
  return facts;
}

function moneyValue(amount: string | undefined, currency: string): MoneyValue | null {
  return amount === undefined ? null : { amount: formatAmount(parseAmount(amount, currency), currency), currency };
}

function sameMoney(a: MoneyValue | null, b: MoneyValue | null): boolean {
  return a?.amount === b?.amount && a?.currency === b?.currency;
}

function sameLocalized(a: Localized, b: Localized): boolean {
  return a.en === b.en && a['zh-Hans'] === b['zh-Hans'];
}

function unionSorted(a: Iterable<string>, b: Iterable<string>): string[] {
  return [...new Set([...a, ...b])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}
