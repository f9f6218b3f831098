import fc from 'fast-check';
import { firstOf } from './first-of';

/** A block as rankBlocks orders them: few distinct scores, so many ties, and ids that compare equal only to themselves. */
interface Ranked {
  score: number;
  id: string;
  /** Where the item was in the input, to tell items apart that the order ties. */
  place: number;
}

const items = fc
  .array(
    fc.record({ score: fc.integer({ min: 0, max: 4 }).map((n) => n / 10), id: fc.constantFrom('RUL-1', 'RUL-2', 'SEC-10', 'sec-2') }),
    {
      maxLength: 120,
      size: 'max',
    },
  )
  .map((list) => list.map((item, place): Ranked => ({ ...item, place })));
const byScoreThenId = (a: Ranked, b: Ranked) => b.score - a.score || a.id.localeCompare(b.id);
const counts = fc.oneof(fc.integer({ min: -2, max: 20 }), fc.constantFrom(0.5, 2.5, Infinity, Number.NaN));

describe('the first items in an order', () => {
  it('are those a stable sort of every item puts first, ties in the items’ order', () => {
    fc.assert(
      fc.property(items, counts, (list, count) => {
        const sorted = [...list].sort(byScoreThenId).slice(0, count);
        expect(firstOf(list, count, byScoreThenId).map((item) => item.place)).toEqual(sorted.map((item) => item.place));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the items as they were', () => {
    const list: Ranked[] = Array.from({ length: 40 }, (_, place) => ({ score: place % 3, id: `B-${place % 7}`, place }));
    const before = list.map((item) => item.place);
    firstOf(list, 3, byScoreThenId);
    expect(list.map((item) => item.place)).toEqual(before);
  });
});
