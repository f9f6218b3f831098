import fc from 'fast-check';
import { placesByDocument } from './places-by-document';

describe('placesByDocument', () => {
  it('orders places by their document and keeps the places of one document in their order, as a stable sort does', () => {
    // Documents from a few (one pass) to millions (three passes), with many repeated, as a prefix's postings are.
    const documents = fc.oneof(
      fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 400, size: 'max' }),
      fc.array(fc.integer({ min: 0, max: 70_000 }), { maxLength: 400, size: 'max' }),
      fc.array(
        fc.integer({ min: 0, max: 40 }).map((n) => n * 65_537),
        { maxLength: 400, size: 'max' },
      ),
      fc.array(fc.integer({ min: 0, max: 5_000_000 }), { maxLength: 400, size: 'max' }),
    );
    fc.assert(
      fc.property(documents, (list) => {
        const given = Int32Array.from(list);
        const expected = list.map((_, place) => place).sort((a, b) => list[a]! - list[b]! || a - b);
        const ordered = placesByDocument(given);
        expect([...ordered.places]).toEqual(expected);
        expect([...ordered.documents]).toEqual(expected.map((place) => list[place]));
        expect([...given]).toEqual(list);
      }),
      { numRuns: 400 },
    );
  });

  it('orders in working arrays lent to it, whatever they held before', () => {
    const working = [new Int32Array(8).fill(5), new Int32Array(8).fill(-1), new Int32Array(8).fill(3), new Int32Array(8).fill(9)];
    const ordered = placesByDocument(Int32Array.of(4, 1, 4, 0), (length) => working.map((array) => array.subarray(0, length)) as never);
    expect([...ordered.places]).toEqual([3, 1, 0, 2]);
    expect([...ordered.documents]).toEqual([0, 1, 4, 4]);
    expect(working.map((array) => array.buffer)).toContain(ordered.documents.buffer);
  });

  it('orders nothing, and documents all numbered 0', () => {
    expect(placesByDocument(new Int32Array(0))).toEqual({ places: new Int32Array(0), documents: new Int32Array(0) });
    expect(placesByDocument(new Int32Array(3))).toEqual({ places: Int32Array.of(0, 1, 2), documents: new Int32Array(3) });
  });
});
