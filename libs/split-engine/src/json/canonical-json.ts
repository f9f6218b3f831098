import { SplitEngineError } from '../errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by the UTF-16 code units of their
 * names, no insignificant white space, strings and numbers serialized as ECMAScript does.
 * Members whose value is undefined are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return canonicalString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new SplitEngineError('not_canonicalizable', `canonical JSON cannot hold the non-finite number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(byCodeUnits)
      .map((key) => `${canonicalString(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new SplitEngineError('not_canonicalizable', `canonical JSON cannot hold a ${typeof value}`);
}

function canonicalString(text: string): string {
  if (LONE_SURROGATE.test(text)) throw new SplitEngineError('not_canonicalizable', 'canonical JSON cannot hold a lone UTF-16 surrogate');
  return JSON.stringify(text);
}

function byCodeUnits(a: string, b: string): number {
  // String comparison in JavaScript is by UTF-16 code units, which is the order RFC 8785 asks for.
  return a < b ? -1 : a > b ? 1 : 0;
}
