import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';
import { decodeCursor, encodeCursor } from '../registry/cursor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decodeIdCursor(list: string, cursor: string): string {
  const id = decodeCursor(list, cursor);
  if (!UUID.test(id)) {
    throw new DomainError(ErrorCode.ValidationFailed, 'The cursor is not valid for this list.', [
      { field: 'cursor', message: 'cursor must be a nextCursor value from this list' },
    ]);
  }
  return id;
}

/** One keyset page: fetches limit+1 rows after the cursor's id and turns them into `{ items, nextCursor }`. */
export async function keysetPage<Row extends { id: string }, Item>(
  list: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
  fetch: (afterId: string | undefined, limit: number) => Promise<Row[]>,
  map: (row: Row) => Item,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const rows = await fetch(query.cursor === undefined ? undefined : decodeIdCursor(list, query.cursor), limit + 1);
  const page = rows.slice(0, limit);
  return { items: page.map(map), nextCursor: rows.length > limit ? encodeCursor(list, page[page.length - 1]!.id) : null };
}
