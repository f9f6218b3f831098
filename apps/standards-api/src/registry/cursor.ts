import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

/** Opaque cursors name the list and the last key served; order is by key, so a walk is stable. */
export function encodeCursor(list: string, lastKey: string): string {
  return Buffer.from(JSON.stringify([list, lastKey]), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string): string {
  const invalid = () =>
    new DomainError(ErrorCode.ValidationFailed, 'The cursor is not valid for this list.', [
      { field: 'cursor', message: 'cursor must be a nextCursor value from this list' },
    ]);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== list || typeof decoded[1] !== 'string') throw invalid();
  return decoded[1];
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** One page of a key-ordered list. */
export function paginate<T>(list: string, items: readonly T[], keyOf: (item: T) => string, page: PageRequest): { items: T[]; nextCursor: string | null } {
  let start = 0;
  if (page.cursor !== undefined) {
    const after = decodeCursor(list, page.cursor);
    start = lowerBoundAfter(items, keyOf, after);
  }
  const slice = items.slice(start, start + page.limit);
  const hasMore = start + page.limit < items.length;
  const last = slice[slice.length - 1];
  return { items: slice, nextCursor: hasMore && last !== undefined ? encodeCursor(list, keyOf(last)) : null };
}

function lowerBoundAfter<T>(items: readonly T[], keyOf: (item: T) => string, key: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(items[middle]!) <= key) low = middle + 1;
    else high = middle;
  }
  return low;
}
