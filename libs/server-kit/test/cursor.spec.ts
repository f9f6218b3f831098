import { ErrorCode } from '@stdreg/contracts';
import { decodeCursor, DomainError, encodeCursor, keysetPage, uuidv7 } from '../src';

/** A list kept in order of id, read the way a repository reads one: the rows after a key, at most `limit`. */
function listOf(count: number): {
  rows: { id: string }[];
  fetch: (afterKey: string | undefined, limit: number) => Promise<{ id: string }[]>;
} {
  const rows = Array.from({ length: count }, () => ({ id: uuidv7() }));
  return {
    rows,
    fetch: async (afterKey, limit) => rows.filter((row) => afterKey === undefined || row.id > afterKey).slice(0, limit),
  };
}

/** Every page of a list, following nextCursor until it is null. */
async function allPages(list: ReturnType<typeof listOf>, limit?: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await keysetPage('things', { limit, cursor }, list.fetch, (row) => row.id);
    pages.push(page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length <= 10);
  return pages;
}

const refusedCursor = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError && error.code === ErrorCode.ValidationFailed && error.errors?.[0]?.field === 'cursor';
  }
  return false;
};

describe('keysetPage', () => {
  it('hands no cursor after a last page that is exactly full', async () => {
    const list = listOf(6);
    const pages = await allPages(list, 3);
    expect(pages).toEqual([list.rows.slice(0, 3).map((row) => row.id), list.rows.slice(3).map((row) => row.id)]);
    expect((await keysetPage('things', { limit: 6 }, list.fetch, (row) => row.id)).nextCursor).toBeNull();
  });

  it('serves every row once, none skipped or repeated, whatever the page size', async () => {
    const list = listOf(7);
    for (const limit of [1, 2, 3, 6, 7, 8]) {
      expect((await allPages(list, limit)).flat()).toEqual(list.rows.map((row) => row.id));
    }
  });

  it('serves 20 rows to a query without a limit', async () => {
    const list = listOf(45);
    expect((await allPages(list)).map((page) => page.length)).toEqual([20, 20, 5]);
  });
});

describe('decodeCursor', () => {
  it('answers the key of a cursor of its own list', () => {
    const key = uuidv7();
    expect(decodeCursor('things', encodeCursor('things', key))).toBe(key);
  });

  it('refuses a cursor whose key is not a string, naming cursor', () => {
    const forged = (key: unknown) => Buffer.from(JSON.stringify(['things', key]), 'utf8').toString('base64url');
    for (const key of [7, null, true, ['a'], { id: 'a' }]) {
      expect(refusedCursor(() => decodeCursor('things', forged(key)))).toBe(true);
    }
    expect(decodeCursor('things', forged('7'))).toBe('7');
  });

  it("refuses another list's cursor, a forged one and a key outside the list's pattern", () => {
    const key = uuidv7();
    expect(refusedCursor(() => decodeCursor('other', encodeCursor('things', key)))).toBe(true);
    expect(refusedCursor(() => decodeCursor('things', 'not+base64url'))).toBe(true);
    // Node's base64 decoder skips characters it does not know; a cursor is refused before that.
    for (const tail of ['!', '=', '.', ' '])
      expect(refusedCursor(() => decodeCursor('things', encodeCursor('things', key) + tail))).toBe(true);
    expect(refusedCursor(() => decodeCursor('things', encodeCursor('things', 'x'), /^[0-9]+$/))).toBe(true);
  });
});
