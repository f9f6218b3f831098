import { DEFAULT_PAGE_LIMIT, ErrorCode } from '@stdreg/contracts';
import { DomainError } from './domain-error';
import { UUID_PATTERN } from '../ids';

const invalidCursor = () =>
  new DomainError(ErrorCode.ValidationFailed, 'The cursor is not valid for this list.', [
    { field: 'cursor', message: 'cursor must be a nextCursor value from this list' },
  ]);

/** Opaque cursors: base64url of the list's name and the last key served. */
export function encodeCursor(list: string, lastKey: string): string {
  return Buffer.from(JSON.stringify([list, lastKey]), 'utf8').toString('base64url');
}

/** The last key a cursor names; a cursor of another list, or a forged one, is a 400 naming `cursor`. */
export function decodeCursor(list: string, cursor: string, keyPattern?: RegExp): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== list || typeof decoded[1] !== 'string') throw invalidCursor();
  if (keyPattern && !keyPattern.test(decoded[1])) throw invalidCursor();
  return decoded[1];
}

/**
 * One keyset page: fetches limit+1 rows after the cursor's key and answers `{ items, nextCursor }`.
 * Keys are uuids unless `keyPattern` says otherwise, so a forged cursor never reaches a query.
 */
export async function keysetPage<Row extends { id: string }, Item>(
  list: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
  fetch: (afterKey: string | undefined, limit: number) => Promise<Row[]>,
  map: (row: Row) => Item,
  keyPattern: RegExp = UUID_PATTERN,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const rows = await fetch(query.cursor === undefined ? undefined : decodeCursor(list, query.cursor, keyPattern), limit + 1);
  const page = rows.slice(0, limit);
  return { items: page.map(map), nextCursor: rows.length > limit ? encodeCursor(list, page[page.length - 1]!.id) : null };
}
