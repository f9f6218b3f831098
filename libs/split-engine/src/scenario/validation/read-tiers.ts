import type { FixedTier, PercentageTier, Tier, TierKind, TierShare } from '../scenario-content';
import { WHOLE_IN_BASIS_POINTS } from '../../money/basis-points';
import { child, FirstUses, describeValue, namedItem, participantEntry, type Place, type ValidationIssues } from './issues';
import { readAmount, readBasisPoints, readKebabId, readList, readLocalized, readRecord, everyRead } from './primitives';
import { checkTierSequence, type TierOutline } from './check-tier-sequence';

export const MAX_TIERS = 20;
const MAX_ENTRIES_PER_TIER = 100;
const TIER_KINDS: readonly TierKind[] = ['fixed', 'percentage'];

/** What a tier reader needs to know about the rest of the scenario. */
export interface TierContext {
  minorDigits: number | undefined;
  /** undefined when the participants list itself is unreadable: then references are not checked. */
  knownParticipantIds: ReadonlySet<string> | undefined;
}

const listPlace: Place = { path: '/tiers', label: 'tiers' };

export function readTiers(value: unknown, context: TierContext, issues: ValidationIssues): Tier[] | undefined {
  const before = issues.count;
  const list = readList(value, listPlace, { min: 1, max: MAX_TIERS, noun: 'tier' }, issues);
  if (list === undefined) return undefined;
  const outlines: TierOutline[] = [];
  const tiers = list.map((raw, index) => {
    const place = namedItem(listPlace, index, raw, 'tierId', 'tier');
    const tier = readTier(raw, place, context, issues);
    outlines.push(outlineOf(raw, place));
    return tier;
  });
  checkTierSequence(outlines, issues);
  return issues.count === before ? everyRead(tiers) : undefined;
}

function readTier(raw: unknown, place: Place, context: TierContext, issues: ValidationIssues): Tier | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    issues.report(place.path, 'invalid_type', `${place.label} must be an object, found ${describeValue(raw)}`);
    return undefined;
  }
  const kind = (raw as Record<string, unknown>)['kind'];
  if (kind === 'fixed') return readFixedTier(raw, place, context, issues);
  if (kind === 'percentage') return readPercentageTier(raw, place, context, issues);
  // Without a known kind the other fields cannot be checked: which ones belong depends on it.
  if (kind === undefined) {
    issues.report(`${place.path}/kind`, 'required', `${place.label} needs "kind": "fixed" or "percentage"`);
  } else {
    const message = `${place.label}, kind must be "fixed" or "percentage", found ${describeValue(kind)}`;
    issues.report(`${place.path}/kind`, 'invalid_tier_kind', message);
  }
  return undefined;
}

function readFixedTier(raw: unknown, place: Place, context: TierContext, issues: ValidationIssues): FixedTier | undefined {
  const before = issues.count;
  const record = readRecord(raw, place, { required: ['tierId', 'kind', 'label', 'allocations'] }, issues);
  if (record === undefined) return undefined;
  const tierId = readKebabId(record['tierId'], child(place, 'tierId'), issues);
  const label = readLocalized(record['label'], child(place, 'label'), issues);
  const allocations = readEntries(record['allocations'], child(place, 'allocations'), 'allocation', context, issues, (entry, at) => {
    const amount = readAmount(entry['amount'], child(at, 'amount'), context.minorDigits, issues);
    return amount === undefined ? undefined : { amount: entry['amount'] as string };
  });
  if (issues.count !== before || tierId === undefined || label === undefined || allocations === undefined) return undefined;
  return { tierId, kind: 'fixed', label, allocations };
}

function readPercentageTier(raw: unknown, place: Place, context: TierContext, issues: ValidationIssues): PercentageTier | undefined {
  const before = issues.count;
  const record = readRecord(raw, place, { required: ['tierId', 'kind', 'label', 'shares'], optional: ['capAmount'] }, issues);
  if (record === undefined) return undefined;
  const tierId = readKebabId(record['tierId'], child(place, 'tierId'), issues);
  const label = readLocalized(record['label'], child(place, 'label'), issues);
  const sharesPlace = child(place, 'shares');
  const shares = readEntries(record['shares'], sharesPlace, 'share', context, issues, (entry, at) => {
    const basisPoints = readBasisPoints(entry['basisPoints'], child(at, 'basisPoints'), issues);
    return basisPoints === undefined ? undefined : { basisPoints };
  });
  if (shares !== undefined) checkSharesSum(shares, sharesPlace, issues);
  const cap = readAmount(record['capAmount'], child(place, 'capAmount'), context.minorDigits, issues);
  if (cap === 0n)
    issues.report(`${place.path}/capAmount`, 'cap_not_positive', `${place.label}, capAmount must be more than zero; omit it for no cap`);
  if (issues.count !== before || tierId === undefined || label === undefined || shares === undefined) return undefined;
  const tier: PercentageTier = { tierId, kind: 'percentage', label, shares };
  if (record['capAmount'] !== undefined) tier.capAmount = record['capAmount'] as string;
  return tier;
}

/**
 * The allocations or shares of a tier: each names a known participant at most once, and has one
 * more field read by `readRest`. Returns the entries only when all of them are valid.
 */
function readEntries<Rest extends object>(
  value: unknown,
  place: Place,
  noun: 'allocation' | 'share',
  context: TierContext,
  issues: ValidationIssues,
  readRest: (entry: Record<string, unknown>, at: Place) => Rest | undefined,
): ({ participantId: string } & Rest)[] | undefined {
  const before = issues.count;
  const list = readList(value, place, { min: 1, max: MAX_ENTRIES_PER_TIER, noun }, issues);
  if (list === undefined) return undefined;
  const restKey = noun === 'allocation' ? 'amount' : 'basisPoints';
  const firstUses = new FirstUses();
  const entries = list.map((raw, index) => {
    const at = participantEntry(place, index, raw);
    const record = readRecord(raw, at, { required: ['participantId', restKey] }, issues);
    if (record === undefined) return undefined;
    const participantId = readParticipantReference(record['participantId'], child(at, 'participantId'), context, issues);
    if (participantId !== undefined) {
      const first = firstUses.claim(participantId, index);
      if (first !== undefined) {
        issues.report(`${at.path}/participantId`, 'duplicate_participant_in_tier', `${at.label} names the same participant as [${first}]`);
      }
    }
    const rest = readRest(record, at);
    return participantId === undefined || rest === undefined ? undefined : { participantId, ...rest };
  });
  return issues.count === before ? everyRead(entries) : undefined;
}

function readParticipantReference(value: unknown, place: Place, context: TierContext, issues: ValidationIssues): string | undefined {
  const participantId = readKebabId(value, place, issues);
  if (participantId === undefined || context.knownParticipantIds === undefined) return participantId;
  if (!context.knownParticipantIds.has(participantId)) {
    issues.report(place.path, 'unknown_participant', `${place.label} names "${participantId}", who is not among the participants`);
    return undefined;
  }
  return participantId;
}

function checkSharesSum(shares: readonly TierShare[], place: Place, issues: ValidationIssues): void {
  const sum = shares.reduce((total, share) => total + share.basisPoints, 0);
  if (sum === WHOLE_IN_BASIS_POINTS) return;
  const gap = sum < WHOLE_IN_BASIS_POINTS ? `${WHOLE_IN_BASIS_POINTS - sum} short of` : `${sum - WHOLE_IN_BASIS_POINTS} over`;
  issues.report(place.path, 'shares_not_10000', `${place.label} sum to ${sum} basis points, ${gap} ${WHOLE_IN_BASIS_POINTS} (100%)`);
}

function outlineOf(raw: unknown, place: Place): TierOutline {
  const record = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const kind = TIER_KINDS.find((known) => known === record['kind']);
  const tierId = typeof record['tierId'] === 'string' ? record['tierId'] : undefined;
  return { place, kind, tierId, capped: record['capAmount'] !== undefined };
}
