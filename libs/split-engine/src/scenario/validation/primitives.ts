// Readers for the value types scenario content is made of. Each reports what is wrong at its place
// and returns the value only when it is valid; `undefined` input means "absent", already reported
// by the object that should have held it.
import type { Localized } from '@stdreg/contracts';
import { readDecimal, MAX_INTEGER_DIGITS } from '../../money/decimal-amount';
import { WHOLE_IN_BASIS_POINTS } from '../../money/basis-points';
import { child, describeValue, pointer, type Place, type ValidationIssues } from './issues';

export const MAX_ID_LENGTH = 64;
export const KEBAB_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function readRecord(
  value: unknown,
  place: Place,
  fields: { required: readonly string[]; optional?: readonly string[] },
  issues: ValidationIssues,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.report(place.path, 'invalid_type', `${place.label || 'scenario'} must be an object, found ${describeValue(value)}`);
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const allowed = [...fields.required, ...(fields.optional ?? [])];
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      issues.report(
        pointer(place.path, key),
        'unknown_key',
        `${labelOf(place)} has unknown field "${key}"; allowed: ${allowed.join(', ')}`,
      );
    }
  }
  for (const key of fields.required) {
    if (record[key] === undefined) issues.report(pointer(place.path, key), 'required', `${labelOf(place)} needs "${key}"`);
  }
  return record;
}

export function readList(
  value: unknown,
  place: Place,
  size: { min: number; max: number; noun: string },
  issues: ValidationIssues,
): unknown[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    issues.report(place.path, 'invalid_type', `${place.label} must be an array of ${size.noun}s, found ${describeValue(value)}`);
    return undefined;
  }
  if (value.length < size.min) {
    issues.report(place.path, 'too_few_items', `${place.label} must have at least ${size.min} ${size.noun}${size.min === 1 ? '' : 's'}`);
  }
  if (value.length > size.max) {
    issues.report(place.path, 'too_many_items', `${place.label} must have at most ${size.max} ${size.noun}s, found ${value.length}`);
  }
  return value as unknown[];
}

export function readText(value: unknown, place: Place, maxLength: number, issues: ValidationIssues): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    issues.report(place.path, 'invalid_type', `${place.label} must be a string, found ${describeValue(value)}`);
    return undefined;
  }
  if (value.trim().length === 0) {
    issues.report(place.path, 'empty_text', `${place.label} must not be empty`);
    return undefined;
  }
  if (value.length > maxLength) {
    issues.report(place.path, 'text_too_long', `${place.label} must be at most ${maxLength} characters, found ${value.length}`);
    return undefined;
  }
  return value;
}

/** Lowercase kebab-case, e.g. "platform-fee". */
export function readKebabId(value: unknown, place: Place, issues: ValidationIssues): string | undefined {
  const text = readText(value, place, MAX_ID_LENGTH, issues);
  if (text === undefined) return undefined;
  if (!KEBAB_ID.test(text)) {
    issues.report(
      place.path,
      'invalid_id',
      `${place.label} must be lowercase kebab-case like "platform-fee", found ${describeValue(text)}`,
    );
    return undefined;
  }
  return text;
}

export function readLocalized(value: unknown, place: Place, issues: ValidationIssues): Localized | undefined {
  const record = readRecord(value, place, { required: ['en', 'zh-Hans'] }, issues);
  if (record === undefined) return undefined;
  const before = issues.count;
  const en = readText(record['en'], child(place, 'en'), 500, issues);
  const zhHans = readText(record['zh-Hans'], child(place, 'zh-Hans'), 500, issues);
  return issues.count === before && en !== undefined && zhHans !== undefined ? { en, 'zh-Hans': zhHans } : undefined;
}

/**
 * A non-negative decimal string with at most `minorDigits` decimals. Without a known currency
 * (`minorDigits` undefined, the currency error is reported elsewhere) only the form is checked.
 */
export function readAmount(value: unknown, place: Place, minorDigits: number | undefined, issues: ValidationIssues): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    issues.report(place.path, 'invalid_type', `${place.label} must be a decimal string like "1234.50", found ${describeValue(value)}`);
    return undefined;
  }
  const reading = readDecimal(value, minorDigits ?? MAX_INTEGER_DIGITS);
  if (!reading.ok) {
    issues.report(place.path, reading.code, `${place.label} ${reading.reason}, found ${describeValue(value)}`);
    return undefined;
  }
  if (reading.minor < 0n) {
    issues.report(place.path, 'negative_amount', `${place.label} must not be negative, found ${describeValue(value)}`);
    return undefined;
  }
  return reading.minor;
}

export function readBasisPoints(value: unknown, place: Place, issues: ValidationIssues): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > WHOLE_IN_BASIS_POINTS) {
    issues.report(
      place.path,
      'invalid_basis_points',
      `${place.label} must be a whole number of basis points from 0 to ${WHOLE_IN_BASIS_POINTS}, found ${describeValue(value)}`,
    );
    return undefined;
  }
  return value;
}

function labelOf(place: Place): string {
  return place.label || 'scenario';
}

/** The items of a list, when every one of them was read without error. */
export function everyRead<T>(items: readonly (T | undefined)[]): T[] | undefined {
  return items.every((item): item is T => item !== undefined) ? [...items] : undefined;
}
