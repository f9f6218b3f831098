import fc from 'fast-check';
import { SUPPORTED_CURRENCIES, SplitEngineError, basisPointsAsPercent, formatAmount, minorDigitsOf, parseAmount, parseTotal } from '../src';

describe('parseAmount', () => {
  it('reads a decimal string into exact minor units', () => {
    expect(parseAmount('1234.50', 'EUR')).toBe(123450n);
    expect(parseAmount('1234.5', 'EUR')).toBe(123450n);
    expect(parseAmount('0', 'EUR')).toBe(0n);
    expect(parseAmount('-0.01', 'USD')).toBe(-1n);
  });

  it('reads yen as whole units and three-digit dinars in thousandths', () => {
    expect(parseAmount('100000', 'JPY')).toBe(100000n);
    expect(parseAmount('1.234', 'KWD')).toBe(1234n);
    expect(parseAmount('7.5', 'BHD')).toBe(7500n);
  });

  it('keeps amounts far beyond floating-point precision exact', () => {
    expect(parseAmount('999999999999999999.99', 'EUR')).toBe(99999999999999999999n);
  });

  it.each([
    ['1.234', 'EUR', 'too_many_decimals'],
    ['100.5', 'JPY', 'too_many_decimals'],
    ['100.', 'EUR', 'invalid_amount'],
    ['1e3', 'EUR', 'invalid_amount'],
    ['01.00', 'EUR', 'invalid_amount'],
    ['1,000.00', 'EUR', 'invalid_amount'],
    [' 1.00', 'EUR', 'invalid_amount'],
    ['+1.00', 'EUR', 'invalid_amount'],
    ['-0.00', 'EUR', 'invalid_amount'],
    ['1000000000000000000', 'EUR', 'amount_too_large'],
    ['1.00', 'XYZ', 'unsupported_currency'],
  ])('refuses %j in %s with %s', (text, currency, code) => {
    expect(() => parseAmount(text, currency)).toThrow(expect.objectContaining({ name: 'SplitEngineError', code }));
  });
});

describe('parseTotal', () => {
  it('reads a sum of amounts with more integer digits than one amount may have, exactly', () => {
    // Two of the largest amounts a period may have: a ledger balance or a total over periods.
    const twoLargest = formatAmount(2n * parseAmount('999999999999999999.99', 'EUR'), 'EUR');
    expect(twoLargest).toBe('1999999999999999999.98');
    expect(parseTotal(twoLargest, 'EUR')).toBe(199999999999999999998n);
    expect(parseTotal('-1999999999999999999999', 'JPY')).toBe(-1999999999999999999999n);
  });

  it.each([
    ['1.234', 'EUR', 'too_many_decimals'],
    ['1e30', 'EUR', 'invalid_amount'],
    ['1' + '0'.repeat(40), 'EUR', 'amount_too_large'],
    ['1.00', 'XYZ', 'unsupported_currency'],
  ])('still refuses %j in %s with %s', (text, currency, code) => {
    expect(() => parseTotal(text, currency)).toThrow(expect.objectContaining({ name: 'SplitEngineError', code }));
  });
});

describe('formatAmount', () => {
  it('writes exactly the currency minor digits', () => {
    expect(formatAmount(123450n, 'EUR')).toBe('1234.50');
    expect(formatAmount(5n, 'EUR')).toBe('0.05');
    expect(formatAmount(0n, 'EUR')).toBe('0.00');
    expect(formatAmount(-1n, 'EUR')).toBe('-0.01');
    expect(formatAmount(32997n, 'JPY')).toBe('32997');
    expect(formatAmount(-1234n, 'KRW')).toBe('-1234');
    expect(formatAmount(1234n, 'OMR')).toBe('1.234');
    expect(formatAmount(7n, 'TND')).toBe('0.007');
  });

  it('refuses a currency that is not in the table', () => {
    expect(() => formatAmount(1n, 'ABC')).toThrow(SplitEngineError);
  });

  it('round-trips every canonical decimal string of every supported currency', () => {
    const canonical = fc.constantFrom(...SUPPORTED_CURRENCIES).chain((currency) => {
      const digits = minorDigitsOf(currency) ?? 2;
      const fraction = digits === 0 ? '' : `\\.[0-9]{${digits}}`;
      return fc.tuple(fc.constant(currency), fc.stringMatching(new RegExp(`^-?(0|[1-9][0-9]{0,17})${fraction}$`)));
    });
    fc.assert(
      fc.property(
        canonical.filter(([, text]) => !/^-0(\.0+)?$/.test(text)),
        ([currency, text]) => formatAmount(parseAmount(text, currency), currency) === text,
      ),
    );
  });

  it('round-trips every minor-unit amount', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SUPPORTED_CURRENCIES),
        fc.bigInt({ min: -(10n ** 18n - 1n), max: 10n ** 18n - 1n }),
        (currency, minor) => {
          return parseAmount(formatAmount(minor, currency), currency) === minor;
        },
      ),
    );
  });
});

describe('minorDigitsOf', () => {
  it('knows the exponents of the common currencies and nothing it was not told', () => {
    expect(['JPY', 'KRW'].map(minorDigitsOf)).toEqual([0, 0]);
    expect(['BHD', 'KWD', 'JOD', 'OMR', 'TND'].map(minorDigitsOf)).toEqual([3, 3, 3, 3, 3]);
    expect(['EUR', 'USD', 'CNY', 'GBP'].map(minorDigitsOf)).toEqual([2, 2, 2, 2]);
    expect(minorDigitsOf('XYZ')).toBeUndefined();
  });

  it('gives every supported currency its ISO 4217 exponent: a wrong one would scale its amounts by a power of ten', () => {
    // Written out from ISO 4217 rather than read back from the table, so a code moved to the wrong list fails here.
    const iso4217: Record<number, string[]> = {
      0: ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'],
      3: ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'],
    };
    const expected = SUPPORTED_CURRENCIES.map((code) => [
      code,
      Number(Object.keys(iso4217).find((d) => iso4217[Number(d)]!.includes(code)) ?? 2),
    ]);
    expect(SUPPORTED_CURRENCIES.map((code) => [code, minorDigitsOf(code)])).toEqual(expected);
    expect(
      Object.values(iso4217)
        .flat()
        .every((code) => SUPPORTED_CURRENCIES.includes(code)),
    ).toBe(true);
    expect(parseAmount('1.234', 'LYD')).toBe(1234n);
    expect(formatAmount(1234n, 'IQD')).toBe('1.234');
    expect(formatAmount(1234n, 'CLP')).toBe('1234');
  });
});

describe('basisPointsAsPercent', () => {
  it('writes basis points as a percentage without trailing zeros', () => {
    expect([10000, 6000, 3350, 3333, 5, 0].map(basisPointsAsPercent)).toEqual(['100', '60', '33.5', '33.33', '0.05', '0']);
  });
});
