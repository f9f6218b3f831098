import { decodeCursor, encodeCursor } from '@stdreg/server-kit';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** One page of a key-ordered list. */
export function paginate<T>(
  list: string,
  items: readonly T[],
  keyOf: (item: T) => string,
  page: PageRequest,
): { items: T[]; nextCursor: string | null } {
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
