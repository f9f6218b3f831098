// Values no honest client sends: odd text, numbers past every column, the wrong type, deep nesting and
// keys that mean something to JavaScript.
import fc from 'fast-check';

export const ONE_MEGABYTE = 1 << 20;

const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  '\ufeffbom',
  '\uffff\ufffe',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦',
  '\r\nX-Injected: 1',
  '%00',
  '%ED%A0%80',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//',
  "' OR '1'='1",
  "'; DROP TABLE split_project; --",
  '1; SELECT pg_sleep(10)',
  '" OR ""="',
  '$1',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '99999999999999999999999',
  '1e999',
  '2026-02-30T00:00:00Z',
  '0000-00-00',
  '__proto__',
  'constructor',
];

/** Text a field might receive from a hostile client. */
export function hostileText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ODD_TEXT) },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 20 }),
    },
    { weight: 1, arbitrary: fc.constantFrom('a', '\u00e9', '\u4e2d', '\ud800').map((unit) => unit.repeat(ONE_MEGABYTE)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((length) => 'x'.repeat(length)) },
  );
}

/** Numbers no column holds, and some it does. */
export function hostileNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(
      -1,
      0,
      -0,
      1,
      -2147483648,
      2147483647,
      2147483648,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 63),
      1e308,
      -1e308,
      5e-324,
      0.5,
      1.0000001,
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
}

/** An object with `key` as an own property, even when the key is `__proto__`. */
export function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** `depth` levels of arrays or objects around a value. */
export function nested(depth: number, kind: 'array' | 'object', inner: unknown = 1): unknown {
  let value = inner;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'toJSON', 'hasOwnProperty', '__defineGetter__'];

/** Any JSON value a hostile client could put where something else was expected. */
export function hostileJson(): fc.Arbitrary<unknown> {
  const leaf: fc.Arbitrary<unknown> = fc.oneof(
    hostileText(),
    hostileNumber(),
    fc.constantFrom(null, true, false, [], {}),
    fc.jsonValue({ maxDepth: 2 }),
  );
  return fc.oneof(
    { weight: 6, arbitrary: leaf },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.oneof(leaf, fc.constant({ isAdmin: true, polluted: true })))
        .map(([key, value]) => withKey({}, key, value)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(31, 33, 200, 1000), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, kind]) => nested(depth, kind)),
    },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map((length) => Array.from({ length }, () => 0)) },
  );
}

/** JSON text that does not parse, or parses to something a JSON API does not expect. */
export function brokenJsonText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '{',
      '}',
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      '{"a":1}{"b":2}',
      '[1,2',
      'nul',
      'NaN',
      '1e999',
      '-',
      '"\\ud800"',
      '"\\u0000"',
      '{"a":"\\x41"}',
      '\u0000',
      '\ufeff{}',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"a":1,"a":2}',
      '',
    ),
    fc.integer({ min: 1000, max: 100_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.integer({ min: 1000, max: 100_000 }).map((depth) => '{"a":'.repeat(depth)),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
}
