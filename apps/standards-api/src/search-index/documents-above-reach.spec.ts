import fc from 'fast-check';
import { DocumentsAboveReach } from './documents-above-reach';

const SLACK = 1 - 1e-9;

/** A first pass as CompactTextIndex.candidates runs it: each term raises some documents' lower bounds, then the reach falls. */
const firstPass = fc.record({
  documentCount: fc.integer({ min: 1, max: 60 }),
  wanted: fc.integer({ min: 1, max: 40 }),
  terms: fc.array(
    fc.record({
      raised: fc.array(fc.record({ document: fc.nat(), score: fc.integer({ min: 0, max: 50 }), found: fc.boolean() }), { maxLength: 20 }),
      fall: fc.integer({ min: 0, max: 30 }),
    }),
    { minLength: 1, maxLength: 40 },
  ),
});

describe('DocumentsAboveReach', () => {
  it('tells whether fewer than `wanted` documents are above the reach, as counting them all does, at every term', () => {
    fc.assert(
      fc.property(firstPass, ({ documentCount, wanted, terms }) => {
        const partial = new Float64Array(documentCount);
        const partialTerms = new Uint16Array(documentCount);
        const above = new DocumentsAboveReach(partial, partialTerms, new Float64Array(documentCount), SLACK);
        const found: number[] = [];
        let reach = 4000;
        for (const term of terms) {
          const documents = term.raised.map(({ document }) => document % documentCount);
          term.raised.forEach(({ score, found: newTerm }, i) => {
            const document = documents[i]!;
            if (partialTerms[document] === 0) found.push(document);
            partial[document]! += score;
            if (newTerm || partialTerms[document] === 0) partialTerms[document]!++;
          });
          above.raised(documents, 0, documents.length);
          reach = Math.max(0, reach - term.fall * 10);
          const counted = found.filter((document) => partial[document]! * partialTerms[document]! * SLACK > reach).length;
          expect(above.fewerThan(wanted, found, reach)).toBe(counted < wanted);
        }
      }),
      { numRuns: 2000 },
    );
  });

  /** Documents found by one term each, with these lower bounds. */
  const foundWith = (lowerBounds: number[]) => {
    const partial = Float64Array.from(lowerBounds);
    const partialTerms = new Uint16Array(lowerBounds.length).fill(1);
    const above = new DocumentsAboveReach(partial, partialTerms, new Float64Array(lowerBounds.length), SLACK);
    return { partial, above, found: lowerBounds.map((_, document) => document) };
  };

  it('counts the documents a term raises, within the range given, between two readings', () => {
    const { partial, above, found } = foundWith([100, 1, 1, 1, 1, 1]);
    expect(above.fewerThan(4, found, 50)).toBe(true);
    for (const document of [1, 2, 3]) partial[document] = 100;
    above.raised([0, 1, 2, 3, 0], 1, 4);
    expect(above.fewerThan(4, found, 50)).toBe(false);
  });

  it('counts the documents that were above the level but not the reach, which the reach may fall below untouched', () => {
    const { partial, above, found } = foundWith([100, 45, 40, 1, 1, 1]);
    expect(above.fewerThan(4, found, 50)).toBe(true);
    partial[3] = 100;
    partial[4] = 100;
    above.raised([3, 4], 0, 2);
    // Above 44: documents 0, 3 and 4, and 1 (45), which no term raised.
    expect(above.fewerThan(4, found, 44)).toBe(false);
  });
});
