import { decodeCursor, encodeCursor } from '@stdreg/server-kit';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** A list read by position (an array, or a ranking whose items are made when read). */
export interface ItemsByPosition<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** One page of a key-ordered list. */
export function paginate<T>(
  list: string,
  items: ItemsByPosition<T>,
  keyOf: (item: T) => string,
  page: PageRequest,
): { items: T[]; nextCursor: string | null } {
  let start = 0;
  if (page.cursor !== undefined) {
    const after = decodeCursor(list, page.cursor);
    start = lowerBoundAfter(items, keyOf, after);
  }
  const slice: T[] = [];
  for (let index = start; index < Math.min(items.length, start + page.limit); index++) slice.push(items.at(index)!);
  const hasMore = start + page.limit < items.length;
  const last = slice[slice.length - 1];
  return { items: slice, nextCursor: hasMore && last !== undefined ? encodeCursor(list, keyOf(last)) : null };
}

function lowerBoundAfter<T>(items: ItemsByPosition<T>, keyOf: (item: T) => string, key: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(items.at(middle)!) <= key) low = middle + 1;
    else high = middle;
  }
  return low;
}
