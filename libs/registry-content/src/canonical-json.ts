/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by their UTF-16 code units,
 * no insignificant white space, numbers and strings as ECMAScript serializes them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON cannot represent a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort(compareUtf16)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot represent a ${typeof value}`);
}

function compareUtf16(a: string, b: string): number {
  // JavaScript string comparison is by UTF-16 code units, which is what RFC 8785 asks for.
  return a < b ? -1 : a > b ? 1 : 0;
}
