import { createHash } from 'node:crypto';
import { formatAmount, parseAmount } from '../money/decimal-amount';
import type { ScenarioContent } from '../scenario/scenario-content';
import { canonicalJson } from './canonical-json';

/**
 * `sha256:<hex>` over the canonical JSON of the split rules: the currency (fixed amounts and caps
 * mean nothing without it), the participants and the tiers, in their order (tier order and fixed
 * allocation order change payments). Amounts are written in their canonical form ("500" EUR as
 * "500.00"), so equal rules have one digest, as diffRuleVersions sees them. Period assumptions are
 * left out: activation confirms rules, not forecasts. Only the known fields are taken, so stray
 * properties do not count. Expects validated content.
 */
export function rulesDigest(scenario: ScenarioContent): string {
  const canonicalAmount = (amount: string): string => formatAmount(parseAmount(amount, scenario.currency), scenario.currency);
  const rules = {
    currency: scenario.currency,
    participants: scenario.participants.map(({ participantId, name, legalEntityId, role }) => ({
      participantId,
      name: { en: name.en, 'zh-Hans': name['zh-Hans'] },
      legalEntityId,
      role,
    })),
    tiers: scenario.tiers.map((tier) =>
      tier.kind === 'fixed'
        ? {
            tierId: tier.tierId,
            kind: tier.kind,
            label: { en: tier.label.en, 'zh-Hans': tier.label['zh-Hans'] },
            allocations: tier.allocations.map(({ participantId, amount }) => ({ participantId, amount: canonicalAmount(amount) })),
          }
        : {
            tierId: tier.tierId,
            kind: tier.kind,
            label: { en: tier.label.en, 'zh-Hans': tier.label['zh-Hans'] },
            shares: tier.shares.map(({ participantId, basisPoints }) => ({ participantId, basisPoints })),
            capAmount: tier.capAmount === undefined ? undefined : canonicalAmount(tier.capAmount),
          },
    ),
  };
  return `sha256:${createHash('sha256').update(canonicalJson(rules), 'utf8').digest('hex')}`;
}
