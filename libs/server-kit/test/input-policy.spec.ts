import fc from 'fast-check';
import {
  headerInputProblem,
  jsonInputProblem,
  MAX_JSON_DEPTH,
  MAX_JSON_FIELDS,
  MAX_JSON_ITEMS,
  MAX_JSON_VALUES,
  unstorableText,
  urlInputProblem,
} from '../src/http/input-policy';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { next: value };
  return value;
};

describe('the input policy', () => {
  it('accepts any text made of Unicode scalar values other than NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!text.includes('\u0000'));
        expect(unstorableText(text)).toBeNull();
      }),
    );
  });

  it('refuses NUL and every unpaired surrogate wherever it sits in a text', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.string(), (before, bad, after) => {
        const text = `${before.replace(/[\ud800-\udfff\u0000]/g, 'x')}${bad}${after.replace(/[\ud800-\udfff\u0000]/g, 'x')}`;
        expect(unstorableText(text)).not.toBeNull();
      }),
    );
    expect(unstorableText('emoji 😀 and 中文')).toBeNull();
  });

  it('finds an unstorable string or key anywhere in a JSON value, and names where', () => {
    expect(jsonInputProblem({ scenario: { content: { periods: [{ periodId: 'a\ud800' }] } } })).toEqual({
      field: 'scenario.content.periods[0].periodId',
      message: expect.stringContaining('unpaired UTF-16 surrogate'),
    });
    expect(jsonInputProblem({ name: 'x\u0000y' })?.field).toBe('name');
    expect(jsonInputProblem({ ['bad\u0000key']: 1 })?.message).toContain('a field name');
    expect(jsonInputProblem({ ok: ['fine', 1, true, null, { deep: 'text' }] })).toBeNull();
  });

  it('refuses a number beyond the range of a double, which JSON.parse reads as Infinity, and names where', () => {
    expect(jsonInputProblem(JSON.parse('{"scenario":{"shares":[1e400]}}'))).toEqual({
      field: 'scenario.shares[0]',
      message: 'scenario.shares[0] is a number too large for any field (JSON.parse made it Infinity)',
    });
    expect(jsonInputProblem(JSON.parse('-1e400'))?.field).toBe('body');
    expect(jsonInputProblem(JSON.parse('{"max":1.7976931348623157e308,"min":5e-324,"under":1e-400}'))).toBeNull();
  });

  it(`accepts nesting of ${MAX_JSON_DEPTH} levels and refuses one more, however deep, without recursion`, () => {
    expect(jsonInputProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonInputProblem(nested(MAX_JSON_DEPTH + 1))?.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect(jsonInputProblem(nested(200_000))?.message).toContain('deeper than');
  });

  it(`accepts an object of ${MAX_JSON_FIELDS} fields and refuses one more, at the top or nested, naming where`, () => {
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    expect(MAX_JSON_FIELDS).toBe(1000);
    expect(jsonInputProblem(fields(MAX_JSON_FIELDS))).toBeNull();
    expect(jsonInputProblem(fields(MAX_JSON_FIELDS + 1))).toEqual({
      field: 'body',
      message: 'the body has 1001 fields, more than the 1000 an object may have',
    });
    expect(jsonInputProblem({ scenario: { content: [fields(20_000)] } })).toEqual({
      field: 'scenario.content[0]',
      message: 'scenario.content[0] has 20000 fields, more than the 1000 an object may have',
    });
    expect(jsonInputProblem({ records: Array.from({ length: 1000 }, () => fields(10)) })).toBeNull();
  });

  it(`accepts an array of ${MAX_JSON_ITEMS} items and refuses one more, naming where`, () => {
    expect(MAX_JSON_ITEMS).toBe(1000);
    expect(jsonInputProblem({ records: Array(MAX_JSON_ITEMS).fill({ email: 'a@example.com' }) })).toBeNull();
    expect(jsonInputProblem({ records: Array(MAX_JSON_ITEMS + 1).fill(1) })).toEqual({
      field: 'records',
      message: 'records has 1001 items, more than the 1000 an array may have',
    });
    expect(jsonInputProblem([[], Array(300_000).fill(0)])?.field).toBe('[1]');
  });

  it(`accepts a body of ${MAX_JSON_VALUES} values and refuses one more, however they nest`, () => {
    expect(MAX_JSON_VALUES).toBe(20_000);
    // The body, its list, 19 lists of 1 000 numbers, and a last list of 978: 20 000 values.
    const lists = (last: number) => ({ records: [...Array.from({ length: 19 }, () => Array(1000).fill(0)), Array(last).fill(0)] });
    expect(jsonInputProblem(lists(978))).toBeNull();
    expect(jsonInputProblem(lists(979))).toEqual({ field: 'body', message: 'the body holds more than the 20000 values a body may have' });
    const wide = {
      ...Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [`k${i}`, Object.fromEntries(Array.from({ length: 1000 }, (_, j) => [`f${j}`, j]))]),
      ),
    };
    expect(jsonInputProblem(wide)?.message).toContain('more than the 20000 values');
  });

  it('refuses a path or a query that decodes to NUL, or does not decode at all', () => {
    expect(urlInputProblem('/v1/users/%00')?.field).toBe('path');
    expect(urlInputProblem('/v1/users/%E0%A4%A')?.message).toContain('percent-encoded UTF-8');
    expect(urlInputProblem('/v1/users?registryId=a%00b')).toEqual({ field: 'registryId', message: expect.stringContaining('NUL') });
    expect(urlInputProblem('/oidc/auth?client_id=%ED%A0%80')?.message).toContain('percent-encoded UTF-8');
    expect(urlInputProblem('/v1/users?email=li%2Bwei%40example.com&limit=5')).toBeNull();
    expect(urlInputProblem('/api/v2/standards/%E4%B8%AD%E6%96%87')).toBeNull();
  });

  it('names the first header field held twice of those a request may hold once, in any letter case', () => {
    expect(headerInputProblem(['Host', 'a', 'Accept', 'x', 'Accept', 'y', 'Authorization', 'b'])).toBeNull();
    expect(headerInputProblem(['Host', 'a', 'HOST', 'a'])).toEqual({
      field: 'host',
      message: 'the request has more than one host header field',
    });
    expect(headerInputProblem(['content-type', 'a', 'Authorization', 'b', 'Content-Type', 'a'])?.field).toBe('content-type');
    expect(headerInputProblem(['Host', 'a b'])?.field).toBe('host');
    expect(headerInputProblem([])).toBeNull();
  });
});
