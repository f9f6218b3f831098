import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsRFC3339, Matches, Max, Min } from 'class-validator';

/** The decorators as if stacked in this order: applied last to first, as TypeScript applies a stack. */
function allOf(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, property) => [...decorators].reverse().forEach((decorate) => decorate(target, property));
}

/** The largest integer an `integer` column holds: revisions and versions are stored as int4. */
export const STORED_INTEGER_MAX = 2_147_483_647;

/** An integer from `min` to STORED_INTEGER_MAX: 1e308 or 2^53 is refused here, not by the database. */
export function IsStoredInteger(min = 1): PropertyDecorator {
  return allOf(IsInt(), Min(min), Max(STORED_INTEGER_MAX));
}

/** An RFC 3339 date-time that names a day the calendar has (2026-02-30 is refused). */
export function IsRealDateTime(): PropertyDecorator {
  return allOf(
    // class-validator's own words, "must be RFC 3339 date", read as if 2026-01-31 were enough.
    IsRFC3339({ message: '$property must be an RFC 3339 date-time with a time zone, like 2026-01-31T23:59:59Z' }),
    IsISO8601({ strict: true, strictSeparator: true }, { message: '$property must be a real calendar date and time' }),
  );
}

/**
 * A calendar day as YYYY-MM-DD that the calendar has. ISO 8601 alone would also let through a month, a
 * week or ordinal date (2026-W09-1, 2026-060) that JavaScript cannot read, and a time whose day depends on a zone.
 */
export function IsCalendarDay(): PropertyDecorator {
  return allOf(
    Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a date (YYYY-MM-DD)' }),
    IsISO8601({ strict: true }, { message: '$property must be a date (YYYY-MM-DD)' }),
  );
}

/**
 * Text stored and compared in NFC, so that one text typed in another Unicode normal form (an é as e and a
 * combining accent) is the same email or name to every index and comparison, not a second one.
 */
export function NormalizedToNfc(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.normalize('NFC') : value));
}
