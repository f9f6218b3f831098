import { createHash } from 'node:crypto';
import { canonicalJson, rulesDigest, type FixedTier, type PercentageTier } from '../src';
import { studioScenario } from './support/scenarios';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by UTF-16 code units and writes no white space', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u20ac': 0, '\r': 1, '\ud83d\ude00': 2, ö: 3 })).toBe(
      '{"\\r":1,"a":[true,null,"x"],"b":1,"ö":3,"€":0,"😀":2}',
    );
  });

  it('writes numbers as ECMAScript does and leaves out undefined members', () => {
    expect(canonicalJson({ n: [1e21, 1e-7, -0, 0.1, 10000], gone: undefined })).toBe('{"n":[1e+21,1e-7,0,0.1,10000]}');
  });

  it('refuses what JSON cannot carry', () => {
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(expect.objectContaining({ code: 'not_canonicalizable' }));
    expect(() => canonicalJson('\ud800')).toThrow(expect.objectContaining({ code: 'not_canonicalizable' }));
    expect(() => canonicalJson(1n)).toThrow(expect.objectContaining({ code: 'not_canonicalizable' }));
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reverseKeys(item)]),
  );
}

describe('rulesDigest', () => {
  it('is sha256 of the canonical currency, participants and tiers', () => {
    const scenario = studioScenario();
    const expected = createHash('sha256')
      .update(canonicalJson({ currency: scenario.currency, participants: scenario.participants, tiers: scenario.tiers }))
      .digest('hex');
    expect(rulesDigest(scenario)).toBe(`sha256:${expected}`);
    expect(rulesDigest(scenario)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('ignores periods, key order and how an amount is written, but not a share change', () => {
    const scenario = studioScenario();
    const otherForecast = { ...studioScenario(), periods: [{ periodId: 'x', revenue: '1.00', costs: '0.00' }] };
    expect(rulesDigest(otherForecast)).toBe(rulesDigest(scenario));
    expect(rulesDigest(reverseKeys(scenario) as typeof scenario)).toBe(rulesDigest(scenario));
    const shortCap = studioScenario();
    (shortCap.tiers[1] as PercentageTier).capAmount = '1000';
    expect(rulesDigest(shortCap)).toBe(rulesDigest(scenario));

    const shortFee = studioScenario();
    (shortFee.tiers[0] as FixedTier).allocations[0]!.amount = '500';
    expect(rulesDigest(shortFee)).toBe(rulesDigest(scenario));

    const changed = studioScenario();
    (changed.tiers[2] as PercentageTier).shares[0]!.basisPoints = 5999;
    expect(rulesDigest(changed)).not.toBe(rulesDigest(scenario));
  });
});
