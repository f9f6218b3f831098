import { compareSectionIds, compareVersions, VERSION_PATTERN } from '@stdreg/contracts';
import { SECTION_ID } from '@stdreg/registry-content';
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

/**
 * A ranking read by position whose length is known only once it is read to its end (a search ranks its
 * later hits when asked for them): a page starts at the position its cursor's key names.
 */
export interface RankedItems<T> {
  /** The item at a position, or undefined past the last. */
  at(index: number): T | undefined;
  /** The position of the first item after the one with this key. */
  indexAfter(key: string): number;
}

/** The order of a list's keys, and the keys a cursor of the list may name (another is a bad cursor). */
export interface KeyOrder {
  compare(a: string, b: string): number;
  pattern?: RegExp;
}

/** Ids, in the order of JavaScript's `<` (and of the C collation the records are read in). */
export const BY_CODE_UNITS: KeyOrder = { compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0) };

/** Version numbers, as numbers: 1.10 after 1.9. */
export const BY_VERSION: KeyOrder = { compare: compareVersions, pattern: VERSION_PATTERN };

/** Section ids, their numbers as numbers: RUL-2 before RUL-10. */
export const BY_SECTION_ID: KeyOrder = { compare: compareSectionIds, pattern: SECTION_ID };

/** One page of a list ordered by its keys in `order`. */
export function paginate<T>(
  list: string,
  items: ItemsByPosition<T> | RankedItems<T>,
  keyOf: (item: T) => string,
  page: PageRequest,
  order: KeyOrder = BY_CODE_UNITS,
): { items: T[]; nextCursor: string | null } {
  let start = 0;
  if (page.cursor !== undefined) {
    const after = decodeCursor(list, page.cursor, order.pattern);
    start = 'indexAfter' in items ? items.indexAfter(after) : lowerBoundAfter(items, keyOf, after, order);
  }
  const slice: T[] = [];
  for (let index = start; index < start + page.limit; index++) {
    const item = items.at(index);
    if (item === undefined) break;
    slice.push(item);
  }
  const hasMore = slice.length === page.limit && items.at(start + page.limit) !== undefined;
  const last = slice[slice.length - 1];
  return { items: slice, nextCursor: hasMore && last !== undefined ? encodeCursor(list, keyOf(last)) : null };
}

function lowerBoundAfter<T>(items: ItemsByPosition<T>, keyOf: (item: T) => string, key: string, order: KeyOrder): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (order.compare(keyOf(items.at(middle)!), key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
