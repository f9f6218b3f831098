import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsRFC3339, Matches, Max, Min, ValidateBy } from 'class-validator';

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

// Control characters (C0, DEL, C1) and, in a text of one line, the line and paragraph separators.
const LINE_CONTROLS = /[\p{Cc}\u2028\u2029]/u;
// A text of lines keeps its tabs and line breaks.
const CONTROLS_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;
// The embeddings, overrides and isolates, which display a text in another order than it is stored (CVE-2021-42574).
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;
// A character that shows: neither white space nor one a renderer may leave invisible (zero widths, the Hangul fillers).
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Whether a text shows anything: one character that is neither white space nor default-ignorable. A text of zero-width
 * spaces, soft hyphens or Hangul fillers alone is blank to its reader, and search folds it to nothing.
 */
export function holdsVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/** Why a text people will read as a name or a description cannot be accepted, or null when it can. */
export function displayTextProblem(text: string, options: { lines?: boolean } = {}): string | null {
  if ((options.lines ? CONTROLS_BUT_LINE_BREAKS : LINE_CONTROLS).test(text))
    return options.lines
      ? 'must not contain control characters other than tabs and line breaks'
      : 'must be one line without control characters';
  if (BIDI_CONTROLS.test(text)) return 'must not contain bidirectional embedding, override or isolate characters';
  if (!holdsVisibleText(text)) return 'must not be blank';
  return null;
}

/**
 * The same rule as one pattern, for the OpenAPI documents (JSON Schema's `pattern`, read with Unicode semantics): a
 * client that checks a body against the document refuses what the service refuses.
 */
export function displayTextPattern(options: { lines?: boolean } = {}): RegExp {
  const allowed = options.lines
    ? '(?:[^\\p{Cc}\\u202A-\\u202E\\u2066-\\u2069]|[\\t\\n\\r])'
    : '[^\\p{Cc}\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]';
  return new RegExp(`^(?=[\\s\\S]*${VISIBLE.source})${allowed}*$`, 'u');
}

/**
 * Text that people read (a name, a description): something visible, no control characters, and nothing that displays
 * it in another order than it is stored. `lines`: tabs and line breaks allowed.
 */
export function IsDisplayText(options: { lines?: boolean } = {}): PropertyDecorator {
  return ValidateBy({
    name: 'isDisplayText',
    // Read by server-kit's describeValidationRules, which writes it into the document as the property's pattern.
    constraints: [displayTextPattern(options)],
    validator: {
      validate: (value: unknown) => typeof value === 'string' && displayTextProblem(value, options) === null,
      defaultMessage: (args) => `${args?.property ?? 'text'} ${displayTextProblem(String(args?.value), options) ?? 'must be text'}`,
    },
  });
}
