import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

/** Opaque keyset cursors: the list's name and the last id served. */
export function encodeCursor(list: string, lastId: string): string {
  return Buffer.from(JSON.stringify([list, lastId]), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string): string {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded[0] === list && typeof decoded[1] === 'string') return decoded[1];
  } catch {
    // fall through to the error below
  }
  throw new DomainError(ErrorCode.ValidationFailed, 'The cursor is not valid for this list.', [
    { field: 'cursor', message: 'cursor must be a nextCursor value from this list' },
  ]);
}

/** Runs a keyset page query for limit+1 rows and turns it into `{ items, nextCursor }`. */
export async function keysetPage<Row extends { id: string }, Item>(
  list: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
  fetch: (afterId: string | undefined, limit: number) => Promise<Row[]>,
  map: (row: Row) => Item,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const rows = await fetch(query.cursor === undefined ? undefined : decodeCursor(list, query.cursor), limit + 1);
  const page = rows.slice(0, limit);
  return { items: page.map(map), nextCursor: rows.length > limit ? encodeCursor(list, page[page.length - 1]!.id) : null };
}
