import type { IncomingHttpHeaders } from 'node:http';

/** What RFC 9110 section 13.2.2 says to do with a request's preconditions: go on, answer 304, or answer 412. */
export type PreconditionOutcome = 'perform' | 'not-modified' | 'if-match-failed' | 'if-none-match-failed';

export interface Preconditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
}

export const preconditionsOf = (headers: IncomingHttpHeaders): Preconditions => ({
  ifMatch: headers['if-match'],
  ifNoneMatch: headers['if-none-match'],
});

/**
 * Evaluates If-Match (strong comparison) and then If-None-Match (weak comparison) against the entity tag of the
 * target's current representation, `null` when that representation has none. Only call it for a target that
 * exists and would otherwise be answered 2xx (section 13.2.1). If-Unmodified-Since and If-Modified-Since are
 * ignored: nothing here gives a modification date (sections 13.1.3, 13.1.4). A `*` holds for any existing
 * target; a list element that is no entity tag (unquoted, `w/`) matches nothing.
 */
export function evaluatePreconditions(method: string, { ifMatch, ifNoneMatch }: Preconditions, etag: string | null): PreconditionOutcome {
  if (ifMatch !== undefined && !listMatches(ifMatch, (tag) => etag !== null && tag === etag)) return 'if-match-failed';
  if (ifNoneMatch !== undefined && listMatches(ifNoneMatch, (tag) => etag !== null && opaque(tag) === opaque(etag))) {
    return method === 'GET' || method === 'HEAD' ? 'not-modified' : 'if-none-match-failed';
  }
  return 'perform';
}

function listMatches(field: string, matches: (tag: string) => boolean): boolean {
  if (field.trim() === '*') return true;
  return field.split(',').some((element) => {
    const tag = element.trim();
    return ENTITY_TAG.test(tag) && matches(tag);
  });
}

/** RFC 9110 section 8.8.3: `W/` (upper case) for a weak tag, then a quoted string of etagc. */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
