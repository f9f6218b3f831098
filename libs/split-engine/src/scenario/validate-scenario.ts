import { CURRENCY_CODE_PATTERN, minorDigitsOf } from '../money/currencies';
import type { ScenarioContent } from './scenario-content';
import type { ScenarioValidation } from './scenario-error';
import { child, describeValue, ValidationIssues, type Place } from './validation/issues';
import { readRecord, readText } from './validation/primitives';
import { readParticipants } from './validation/read-participants';
import { readPeriods } from './validation/read-periods';
import { readTiers } from './validation/read-tiers';

const root: Place = { path: '', label: '' };

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
  const scenario: ScenarioContent = { currency, periods, participants, tiers };
  return { ok: true, scenario };
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
