import type { ScenarioPeriod } from '../scenario-content';
import { child, FirstUses, namedItem, describeValue, type Place, type ValidationIssues } from './issues';
import { KEBAB_ID, MAX_ID_LENGTH, readAmount, readList, readRecord, readText, everyRead } from './primitives';

export const MAX_PERIODS = 120;

const LOOKS_LIKE_MONTH = /^\d{4}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const QUARTER = /^\d{4}-Q[1-4]$/;

const listPlace: Place = { path: '/periods', label: 'periods' };

export function readPeriods(value: unknown, minorDigits: number | undefined, issues: ValidationIssues): ScenarioPeriod[] | undefined {
  const before = issues.count;
  const list = readList(value, listPlace, { min: 1, max: MAX_PERIODS, noun: 'period' }, issues);
  if (list === undefined) return undefined;
  const firstUses = new FirstUses();
  const periods = list.map((raw, index) => {
    const place = namedItem(listPlace, index, raw, 'periodId', 'period');
    const period = readPeriod(raw, place, minorDigits, issues);
    if (period) {
      const first = firstUses.claim(period.periodId, index);
      if (first !== undefined) {
        issues.report(`${place.path}/periodId`, 'duplicate_period_id', `${place.label} repeats the periodId of periods[${first}]`);
      }
    }
    return period;
  });
  return issues.count === before ? everyRead(periods) : undefined;
}

function readPeriod(raw: unknown, place: Place, minorDigits: number | undefined, issues: ValidationIssues): ScenarioPeriod | undefined {
  const before = issues.count;
  const record = readRecord(raw, place, { required: ['periodId', 'revenue', 'costs'] }, issues);
  if (record === undefined) return undefined;
  const periodId = readPeriodId(record['periodId'], child(place, 'periodId'), issues);
  readAmount(record['revenue'], child(place, 'revenue'), minorDigits, issues);
  readAmount(record['costs'], child(place, 'costs'), minorDigits, issues);
  if (issues.count !== before || periodId === undefined) return undefined;
  return { periodId, revenue: record['revenue'] as string, costs: record['costs'] as string };
}

/** "2026-01" (a real month), "2026-Q1", or another kebab-case id such as "launch-year". */
function readPeriodId(value: unknown, place: Place, issues: ValidationIssues): string | undefined {
  const text = readText(value, place, MAX_ID_LENGTH, issues);
  if (text === undefined) return undefined;
  const valid = LOOKS_LIKE_MONTH.test(text) ? MONTH.test(text) : QUARTER.test(text) || KEBAB_ID.test(text);
  if (!valid) {
    issues.report(
      place.path,
      'invalid_period_id',
      `${place.label} must be a month "YYYY-MM", a quarter "YYYY-Qn" or a kebab-case id, found ${describeValue(text)}`,
    );
    return undefined;
  }
  return text;
}
