import { canonicalJson } from '../src';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by UTF-16 code units and drops white space', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u20ac': 0, '\r': 1, '\ud83d\ude00': 2, ö: 3 })).toBe(
      '{"\\r":1,"a":[true,null,"x"],"b":1,"ö":3,"€":0,"😀":2}',
    );
  });

  it('serializes numbers the ECMAScript way', () => {
    expect(canonicalJson([1e21, 1e-7, -0, 0.1, 333333333.3333333, 10000])).toBe('[1e+21,1e-7,0,0.1,333333333.3333333,10000]');
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });
});
