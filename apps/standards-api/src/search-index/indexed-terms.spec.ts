import fc from 'fast-check';
import { IndexedTermsBuild, type IndexedTerm } from './indexed-terms';

const name = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '-', '结', '算', '\u0000', '😀'), maxLength: 12 });
const term = fc.record({
  term: fc.record({ en: name, 'zh-Hans': name }),
  standards: fc.array(fc.constantFrom('STD-1', 'STD-2', 'STD-3', 'ACC-10'), { maxLength: 4 }),
});

describe('the terms as the search index keeps them', () => {
  it('gives back each term as it was added, its names and blocks in order, and nothing for an id never added', () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 40 }), (added) => {
        const build = new IndexedTermsBuild();
        const expected: IndexedTerm[] = added.map((t, i) => ({ termId: `term-${i}`, term: { ...t.term }, standards: [...t.standards] }));
        for (const t of expected) build.add(t.termId, t.term, t.standards);
        const terms = build.done();
        expect(terms.size).toBe(expected.length);
        for (const t of expected) expect(terms.get(t.termId)).toStrictEqual(t);
        expect(terms.get(`term-${expected.length}`)).toBeUndefined();
      }),
    );
  });

  it('makes a term anew each time, so a caller changing one changes nothing kept', () => {
    const build = new IndexedTermsBuild();
    build.add('ledger', { en: 'Ledger', 'zh-Hans': '账簿' }, ['ACC-10']);
    const terms = build.done();
    terms.get('ledger')!.standards.push('STD-1');
    expect(terms.get('ledger')).toStrictEqual({ termId: 'ledger', term: { en: 'Ledger', 'zh-Hans': '账簿' }, standards: ['ACC-10'] });
  });
});
