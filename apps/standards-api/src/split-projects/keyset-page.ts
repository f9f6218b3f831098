import { decodeCursor, encodeCursor } from '../registry/cursor';

/** One keyset page: fetches limit+1 rows after the cursor's id and turns them into `{ items, nextCursor }`. */
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
