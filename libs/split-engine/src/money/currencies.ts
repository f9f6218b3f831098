/**
 * ISO 4217 currencies the engine accepts, with the number of digits of their minor unit.
 * A code outside this table is refused rather than guessed: a wrong exponent would scale every
 * amount by a power of ten.
 */
const ZERO_DIGITS = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
const THREE_DIGITS = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const TWO_DIGITS = [
  'AED',
  'ARS',
  'AUD',
  'BDT',
  'BGN',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'KES',
  'KZT',
  'LKR',
  'MAD',
  'MXN',
  'MYR',
  'NGN',
  'NOK',
  'NZD',
  'PEN',
  'PHP',
  'PKR',
  'PLN',
  'QAR',
  'RON',
  'RSD',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'UYU',
  'ZAR',
];

const MINOR_DIGITS: ReadonlyMap<string, number> = new Map([
  ...ZERO_DIGITS.map((code) => [code, 0] as const),
  ...TWO_DIGITS.map((code) => [code, 2] as const),
  ...THREE_DIGITS.map((code) => [code, 3] as const),
]);

export const SUPPORTED_CURRENCIES: readonly string[] = [...MINOR_DIGITS.keys()].sort();

export const CURRENCY_CODE_PATTERN = /^[A-Z]{3}$/;

/** Digits of the minor unit (2 for EUR: 1 EUR = 100 cents), or undefined for a code not in the table. */
export function minorDigitsOf(currency: string): number | undefined {
  return MINOR_DIGITS.get(currency);
}

export function isSupportedCurrency(currency: string): boolean {
  return MINOR_DIGITS.has(currency);
}
