import { CURRENCY_CODE_PATTERN, minorDigitsOf } from '../money/currencies';
import type { ScenarioContent, Tier } from './scenario-content';
import type { ScenarioValidation } from './scenario-error';
import { child, describeValue, ValidationIssues, type Place } from './validation/issues';
import { readRecord, readText } from './validation/primitives';
import { readParticipants } from './validation/read-participants';
import { readPeriods } from './validation/read-periods';
import { readTiers } from './validation/read-tiers';

const root: Place = { path: '', label: '' };

/**
 * The most payments one settlement of a scenario works out: its periods times the entries of its tiers.
 * Each list alone is bounded, but their product at the bounds (120 periods, 20 tiers of 100) took seconds
 * of CPU for one tool call; 120 monthly periods of 100 entries is the largest plan this allows.
 */
export const MAX_SETTLEMENT_PAYMENTS = 12_000;

/**
 * Checks untrusted content (a request body, a merge-patched revision) and returns it as a fresh
 * ScenarioContent holding only the known fields, or every error found, each at its JSON Pointer.
 */
export function validateScenario(content: unknown): ScenarioValidation {
  const issues = new ValidationIssues();
  const record = readRecord(content, root, { required: ['currency', 'periods', 'participants', 'tiers'] }, issues);
  if (record === undefined) {
    if (content === undefined) issues.report('', 'invalid_type', 'Scenario content must be an object, found nothing');
    return { ok: false, errors: issues.errors };
  }
  const currency = readCurrency(record['currency'], child(root, 'currency'), issues);
  const minorDigits = currency === undefined ? undefined : minorDigitsOf(currency);
  const periods = readPeriods(record['periods'], minorDigits, issues);
  const { participants, knownIds } = readParticipants(record['participants'], issues);
  const tiers = readTiers(record['tiers'], { minorDigits, knownParticipantIds: knownIds }, issues);
  if (issues.count > 0 || currency === undefined || periods === undefined || participants === undefined || tiers === undefined) {
    return { ok: false, errors: issues.errors };
  }
  const payments = periods.length * tiers.reduce((entries, tier) => entries + entriesOf(tier), 0);
  if (payments > MAX_SETTLEMENT_PAYMENTS) {
    const message = `A scenario settles at most ${MAX_SETTLEMENT_PAYMENTS} payments (periods times tier entries), found ${payments}`;
    return { ok: false, errors: [{ path: '', code: 'too_many_items', message }] };
  }
  const scenario: ScenarioContent = { currency, periods, participants, tiers };
  return { ok: true, scenario };
}

function entriesOf(tier: Tier): number {
  return tier.kind === 'fixed' ? tier.allocations.length : tier.shares.length;
}

function readCurrency(value: unknown, place: Place, issues: ValidationIssues): string | undefined {
  const code = readText(value, place, 40, issues);
  if (code === undefined) return undefined;
  if (!CURRENCY_CODE_PATTERN.test(code)) {
    issues.report(
      place.path,
      'invalid_currency',
      `Currency must be an ISO 4217 code of three uppercase letters, found ${describeValue(code)}`,
    );
    return undefined;
  }
  if (minorDigitsOf(code) === undefined) {
    issues.report(place.path, 'unsupported_currency', `Currency "${code}" is not supported`);
    return undefined;
  }
  return code;
}
