// Rules about the order of tiers: unique ids, fixed tiers before percentage tiers, and an uncapped
// percentage tier last so that every minor unit is allocated.
import type { TierKind } from '../scenario-content';
import { FirstUses, type Place, type ValidationIssues } from './issues';

/** What the sequence rules need of a tier, read even from a tier that has errors of its own. */
export interface TierOutline {
  place: Place;
  kind: TierKind | undefined;
  tierId: string | undefined;
  capped: boolean;
}

export function checkTierSequence(tiers: readonly TierOutline[], issues: ValidationIssues): void {
  const firstUses = new FirstUses();
  let firstPercentage: TierOutline | undefined;
  tiers.forEach((tier, index) => {
    if (tier.tierId !== undefined) {
      const first = firstUses.claim(tier.tierId, index);
      if (first !== undefined) {
        issues.report(`${tier.place.path}/tierId`, 'duplicate_tier_id', `${tier.place.label} repeats the tierId of tiers[${first}]`);
      }
    }
    if (tier.kind === 'percentage') firstPercentage ??= tier;
    if (tier.kind === 'fixed' && firstPercentage !== undefined) {
      issues.report(
        `${tier.place.path}/kind`,
        'fixed_after_percentage',
        `${tier.place.label} is fixed but comes after percentage ${firstPercentage.place.label}; fixed tiers come first`,
      );
    }
  });
  const last = tiers.at(-1);
  if (last?.kind === 'fixed') {
    issues.report(
      `${last.place.path}/kind`,
      'last_tier_not_percentage',
      `${last.place.label} is the last tier, so it must be a percentage tier that takes what remains`,
    );
  }
  if (last?.kind === 'percentage' && last.capped) {
    issues.report(
      `${last.place.path}/capAmount`,
      'last_tier_capped',
      `${last.place.label} is the last tier, so it must not have a cap: what it leaves would go nowhere`,
    );
  }
}
