// Decimal strings in a currency's major unit ("1234.50") <-> bigint minor units (123450n), exactly.
import { SplitEngineError } from '../errors';
import { minorDigitsOf } from './currencies';

/** More than enough for any real amount, and it keeps a hostile string from becoming a huge bigint. */
export const MAX_INTEGER_DIGITS = 18;
/** A total still has a bound: far beyond any sum of amounts (10^12 of them at the largest), yet a small bigint. */
export const MAX_TOTAL_INTEGER_DIGITS = 40;

const DECIMAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export type DecimalReading =
  { ok: true; minor: bigint } | { ok: false; code: 'invalid_amount' | 'too_many_decimals' | 'amount_too_large'; reason: string };

/**
 * Reads a decimal string with at most `minorDigits` fraction digits and `maxIntegerDigits` integer
 * digits; negative amounts are read, not refused.
 */
export function readDecimal(text: string, minorDigits: number, maxIntegerDigits = MAX_INTEGER_DIGITS): DecimalReading {
  const match = DECIMAL.exec(text);
  if (!match) {
    return {
      ok: false,
      code: 'invalid_amount',
      reason: 'must be a decimal string like "1234.50" (no exponent, sign only "-", no grouping)',
    };
  }
  const [, sign = '', whole = '', fraction = ''] = match;
  if (fraction.length > minorDigits) {
    return {
      ok: false,
      code: 'too_many_decimals',
      reason: minorDigits === 0 ? 'must be a whole number in this currency' : `must have at most ${minorDigits} decimal places`,
    };
  }
  if (whole.length > maxIntegerDigits) {
    return { ok: false, code: 'amount_too_large', reason: `must have at most ${maxIntegerDigits} digits before the decimal point` };
  }
  const magnitude = BigInt(whole + fraction.padEnd(minorDigits, '0'));
  if (sign === '-' && magnitude === 0n) {
    return { ok: false, code: 'invalid_amount', reason: 'zero has no sign' };
  }
  return { ok: true, minor: sign === '-' ? -magnitude : magnitude };
}

export function requireMinorDigits(currency: string): number {
  const digits = minorDigitsOf(currency);
  if (digits === undefined) throw new SplitEngineError('unsupported_currency', `currency "${currency}" is not supported`);
  return digits;
}

/** "1234.5" EUR -> 123450n. Throws SplitEngineError for text that is not an amount of that currency. */
export function parseAmount(text: string, currency: string): bigint {
  return parseDecimal(text, currency, MAX_INTEGER_DIGITS);
}

/**
 * Reads a sum of amounts this system computed itself (a ledger balance, a total over periods): one
 * amount has at most MAX_INTEGER_DIGITS integer digits, but a sum of them may have more.
 */
export function parseTotal(text: string, currency: string): bigint {
  return parseDecimal(text, currency, MAX_TOTAL_INTEGER_DIGITS);
}

function parseDecimal(text: string, currency: string, maxIntegerDigits: number): bigint {
  const reading = readDecimal(text, requireMinorDigits(currency), maxIntegerDigits);
  if (!reading.ok) throw new SplitEngineError(reading.code, `${JSON.stringify(text)} ${reading.reason} (${currency})`);
  return reading.minor;
}

/** 123450n EUR -> "1234.50": always exactly the currency's minor digits, so parseAmount reads it back. */
export function formatAmount(minor: bigint, currency: string): string {
  const digits = requireMinorDigits(currency);
  const magnitude = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
  const sign = minor < 0n ? '-' : '';
  if (digits === 0) return sign + magnitude;
  return `${sign}${magnitude.slice(0, -digits)}.${magnitude.slice(-digits)}`;
}

/** "1234.50 EUR", for sentences. */
export function formatMoney(minor: bigint, currency: string): string {
  return `${formatAmount(minor, currency)} ${currency}`;
}
