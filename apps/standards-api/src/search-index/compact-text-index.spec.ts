// CI runs this spec once, in the PostgreSQL run: plain code (no database), placed there to even out the two runs.
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { loadPack, samplePackDirectory } from '@stdreg/registry-content';
import { ASKS_BY_DOCUMENT, CompactTextIndex, TextIndexBuild, type TextDocument, type TextSearchOptions } from './compact-text-index';
import { searchTerms, searchTermsOfAll } from './search-text';

// Words that share prefixes and lie one or two edits apart, so prefix and typo matches overlap and collide.
const LATIN_WORDS = [
  'pay',
  'payout',
  'payouts',
  'payment',
  'payments',
  'payee',
  'payer',
  'approve',
  'approval',
  'approved',
  'aprove',
  'settle',
  'settlement',
  'setlement',
  'settled',
  'ledger',
  'ledgers',
  'leger',
  'exchange',
  'exchanged',
  'rate',
  'rates',
  'four-eyes',
  'duties',
  'duty',
  '2024',
  '42',
];
const HAN = ['付', '款', '审', '批', '结', '算', '汇', '率', '红', '冲', '账', '本'];
const FIELDS = ['name', 'designations', 'definition'];

const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LATIN_WORDS) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...HAN), { minLength: 1, maxLength: 5 }).map((chars) => chars.join('')) },
);
const text = (maxWords: number) => fc.array(word, { maxLength: maxWords }).map((words) => words.join(' '));
const corpus = fc.array(fc.tuple(text(8), text(6), text(20)), { minLength: 1, maxLength: 25 });
const searchOptions: fc.Arbitrary<TextSearchOptions> = fc
  .record({
    boost: fc.record({ name: fc.constantFrom(4, 1, 0), designations: fc.constantFrom(3, 0.5), definition: fc.constantFrom(0.6, 2) }),
    prefixFrom: fc.constantFrom(0, 3, 5, 99),
    fuzzyFrom: fc.constantFrom(1, 3, 5, 99),
    fuzziness: fc.constantFrom<boolean | number>(true, false, 1, 2, 0.2, 0.35),
    weights: fc.record({ fuzzy: fc.constantFrom(0.45, 0.5), prefix: fc.constantFrom(0.375, 0.4) }),
  })
  .map(({ boost, prefixFrom, fuzzyFrom, fuzziness, weights }) => ({
    boost,
    prefix: (term: string) => term.length >= prefixFrom,
    fuzzy: (term: string) => term.length >= fuzzyFrom && fuzziness,
    weights,
  }));

/** Documents added to an index build in batches of these sizes (the last batch takes what is left). */
function builtInBatches(documents: TextDocument[], batchSizes: number[]): TextIndexBuild {
  const build = new TextIndexBuild(FIELDS, searchTermsOfAll);
  let from = 0;
  for (const size of batchSizes) {
    build.add(documents.slice(from, from + size));
    from += size;
  }
  return build.add(documents.slice(from));
}

/** MiniSearch, the oracle, and the compact index over the same documents (added to a build in batches, if given). */
function bothIndexes(documents: readonly (readonly string[])[], batchSizes?: number[]) {
  const miniSearch = new MiniSearch({ fields: FIELDS, tokenize: searchTerms, processTerm: (term) => term });
  miniSearch.addAll(documents.map(([name, designations, definition], i) => ({ id: `d${i}`, name, designations, definition })));
  const textDocuments = documents.map((fields, i) => ({ id: `d${i}`, fields }));
  const compact = new CompactTextIndex(
    FIELDS,
    searchTerms,
    batchSizes ? builtInBatches(textDocuments, batchSizes) : textDocuments,
    searchTermsOfAll,
  );
  return { miniSearch, compact };
}

function expectSameAnswer(
  { miniSearch, compact }: ReturnType<typeof bothIndexes>,
  query: string,
  options: TextSearchOptions,
  atLeast: number,
  limit = Infinity,
  keep: ReadonlySet<string> = new Set(),
) {
  const all = miniSearch.search(query, options);
  const aboveShare = all.filter((result) => result.score >= (all[0]?.score ?? 0) * atLeast);
  const expected = aboveShare.filter((result, rank) => rank < limit || keep.has(result.id));
  const ranking = compact.search(query, options, { atLeast, limit, keep });
  expect(ranking.complete).toBe(expected.length === aboveShare.length);
  const actual = Array.from({ length: ranking.size }, (_, rank) => ({
    id: ranking.idAt(rank),
    score: ranking.scoreAt(rank),
    queryTerms: ranking.queryTermsAt(rank),
  }));
  expect(actual.map((hit) => hit.id)).toEqual(expected.map((result) => result.id));
  expect(actual.map((hit) => hit.queryTerms)).toEqual(expected.map((result) => result.queryTerms));
  actual.forEach((hit, rank) => {
    const score = expected[rank]!.score;
    expect(Math.abs(hit.score - score)).toBeLessThanOrEqual(1e-9 * Math.abs(score));
  });
}

/** The share of the best score a hit must reach (0: every hit). */
const share = fc.constantFrom(0, 0, 0.12, 0.45, 1);
/** How many hits are asked for (a page of them, or every one). */
const limit = fc.constantFrom(Infinity, 0, 1, 2, 3, 5, 10);
/** Documents answered wherever they rank, by number (d0, d1, …; some beyond the corpus). */
const kept = fc.uniqueArray(fc.nat(30), { maxLength: 3 }).map((numbers) => new Set(numbers.map((n) => `d${n}`)));

describe('the compact text index', () => {
  it('answers from the tokens a build hands out as the build that tokenized them', () => {
    fc.assert(
      fc.property(corpus, fc.array(fc.nat(30), { maxLength: 3 }), text(5), searchOptions, (documents, batchSizes, query, options) => {
        const textDocuments = documents.map((fields, i) => ({ id: `d${i}`, fields }));
        const handedOut: [string, string[][]][] = [];
        const tokenizing = new TextIndexBuild(FIELDS, searchTermsOfAll);
        let from = 0;
        for (const size of batchSizes) {
          tokenizing.add(textDocuments.slice(from, from + size), (id, tokensOfFields) => handedOut.push([id, tokensOfFields]));
          from += size;
        }
        tokenizing.add(textDocuments.slice(from), (id, tokensOfFields) => handedOut.push([id, tokensOfFields]));
        const fromTokens = new TextIndexBuild(FIELDS, searchTermsOfAll);
        for (const [id, tokensOfFields] of handedOut) fromTokens.addTokenized(id, tokensOfFields);
        const answer = (index: CompactTextIndex) => {
          const ranking = index.search(query, options);
          return Array.from({ length: ranking.size }, (_, rank) => [ranking.idAt(rank), ranking.scoreAt(rank), ranking.queryTermsAt(rank)]);
        };
        expect(handedOut.map(([id]) => id)).toEqual(textDocuments.map((document) => document.id));
        expect(answer(new CompactTextIndex(FIELDS, searchTerms, fromTokens, searchTermsOfAll))).toEqual(
          answer(new CompactTextIndex(FIELDS, searchTerms, tokenizing, searchTermsOfAll)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('ranks, scores and credits query terms as MiniSearch does', () => {
    fc.assert(
      fc.property(corpus, text(5), searchOptions, share, (documents, query, options, atLeast) => {
        expectSameAnswer(bothIndexes(documents), query, options, atLeast);
      }),
      { numRuns: 400 },
    );
  });

  it("answers a search for the first hits with MiniSearch's first hits, scores and ties included, and the kept ones wherever they rank", () => {
    fc.assert(
      fc.property(corpus, text(5), searchOptions, share, limit, kept, (documents, query, options, atLeast, first, keep) => {
        expectSameAnswer(bothIndexes(documents), query, options, atLeast, first, keep);
      }),
      { numRuns: 400 },
    );
  });

  it('answers as MiniSearch does when its documents were added to a build a batch at a time, in batches of any size', () => {
    const batchSizes = fc.array(fc.nat(8), { maxLength: 6 });
    fc.assert(
      fc.property(corpus, batchSizes, text(5), searchOptions, share, limit, (documents, sizes, query, options, atLeast, first) => {
        expectSameAnswer(bothIndexes(documents, sizes), query, options, atLeast, first);
      }),
      { numRuns: 300 },
    );
  });

  it('answers as MiniSearch does over hundreds of documents sharing their words, where most are ruled out early', () => {
    // Many documents, few words: most hits tie or nearly tie, and a page of them leaves most documents out.
    const large = fc.array(fc.tuple(text(4), text(3), text(8)), { minLength: 50, maxLength: 400 });
    fc.assert(
      fc.property(
        large,
        fc.array(text(4), { minLength: 1, maxLength: 5 }),
        searchOptions,
        share,
        limit,
        (documents, queries, options, atLeast, first) => {
          const indexes = bothIndexes(documents);
          for (const query of queries) expectSameAnswer(indexes, query, options, atLeast, first);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers each of many searches in turn as MiniSearch does, its words looked up in other ways by earlier ones', () => {
    // One index asked queries sharing words under different options, then the same ones again in another order:
    // the lists a term finds are remembered between searches by the term and how it is looked up.
    const large = fc.array(fc.tuple(text(4), text(3), text(8)), { minLength: 30, maxLength: 200 });
    const asks = fc.array(fc.tuple(text(4), searchOptions, share, limit), { minLength: 2, maxLength: 8 });
    fc.assert(
      fc.property(large, asks, (documents, questions) => {
        const indexes = bothIndexes(documents);
        for (const [query, options, atLeast, first] of [...questions, ...questions.slice().reverse()]) {
          expectSameAnswer(indexes, query, options, atLeast, first);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('answers as MiniSearch does when asked again for words found by prefix in hundreds of lists (read by document)', () => {
    // Words sharing a prefix, as the generated terms' compounds share their first word's: asked ASKS_BY_DOCUMENT times, a
    // term of more than 256 lists is read by document, whole or for the candidates alone, and must add up and rank as before.
    const letters = 'abcdefghijklmnopq';
    const compounds = [...letters].flatMap((a) => [...letters].map((b) => `pay${a}${b}`));
    const compound = fc.constantFrom(...compounds);
    const mixed = (maxWords: number) => fc.array(fc.oneof(compound, word), { maxLength: maxWords }).map((words) => words.join(' '));
    const large = fc.array(fc.tuple(mixed(4), mixed(3), mixed(8)), { minLength: 150, maxLength: 300 });
    const query = fc.array(fc.oneof(fc.constantFrom('pay', 'payment', 'ledger', 'settle', 'rate'), compound), {
      minLength: 1,
      maxLength: 4,
    });
    const prefixed = searchOptions.map((options) => ({ ...options, prefix: (term: string) => term.length >= 3 }));
    fc.assert(
      fc.property(large, fc.array(fc.tuple(query, prefixed, share, limit, kept), { minLength: 1, maxLength: 3 }), (documents, asks) => {
        const indexes = bothIndexes(documents);
        for (let round = 0; round < ASKS_BY_DOCUMENT + 1; round++) {
          for (const [words, options, atLeast, first, keep] of asks)
            expectSameAnswer(indexes, words.join(' '), options, atLeast, first, keep);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('answers as MiniSearch does when two words found by prefix in hundreds of lists are asked in turn, each read by document', () => {
    // Each word's postings are ordered by document in working arrays the index lends again: the second word's must
    // not overwrite what the first one keeps, nor a search's candidates in order what a list's postings are read into.
    const letters = 'abcdefghijklmnopq';
    const compounds = ['pay', 'fee'].flatMap((prefix) => [...letters].flatMap((a) => [...letters].map((b) => `${prefix}${a}${b}`)));
    const mixed = (maxWords: number) =>
      fc.array(fc.oneof(fc.constantFrom(...compounds), word), { maxLength: maxWords }).map((words) => words.join(' '));
    const large = fc.array(fc.tuple(mixed(4), mixed(3), mixed(8)), { minLength: 150, maxLength: 300 });
    const prefixed = searchOptions.map((options) => ({ ...options, prefix: (term: string) => term.length >= 3 }));
    const asked = fc.tuple(fc.constantFrom('pay', 'pay rate', 'pay fee'), fc.constantFrom('fee', 'fee ledger', 'settle fee'));
    fc.assert(
      fc.property(large, asked, prefixed, share, limit, kept, (documents, queries, options, atLeast, first, keep) => {
        const indexes = bothIndexes(documents);
        for (let round = 0; round < ASKS_BY_DOCUMENT + 1; round++) {
          for (const query of queries) expectSameAnswer(indexes, query, options, atLeast, first, keep);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('answers as MiniSearch does when the few documents left after the first pass were found out of document order', () => {
    // A prefix's tokens each have their documents in order, but one after the other they are not: the few left are
    // then put in order (sorted, not read off the states of hundreds), or a list read for them alone misses some.
    const documents = Array.from({ length: 640 }, (_, i): [string, string, string] => {
      const name = i === 5 || i === 400 ? 'payee' : i === 200 || i === 600 ? 'payer' : 'rate';
      return [name, '', `ledger ${i % 3 === 0 ? 'ledger' : ''}`];
    });
    const indexes = bothIndexes(documents);
    const options: TextSearchOptions = {
      boost: {},
      prefix: (term) => term === 'pay',
      fuzzy: () => false,
      weights: { fuzzy: 0.5, prefix: 0.4 },
    };
    for (const first of [1, 2, 3]) expectSameAnswer(indexes, 'pay ledger', options, 0, first);
  });

  it('answers a bounded search with the first hits of the same search unbounded, the pruned documents never among them', () => {
    const large = fc.array(fc.tuple(text(4), text(3), text(8)), { minLength: 50, maxLength: 400 });
    fc.assert(
      fc.property(large, text(4), searchOptions, share, limit, kept, (documents, query, options, atLeast, first, keep) => {
        const { compact } = bothIndexes(documents);
        const hits = (ranking: ReturnType<CompactTextIndex['search']>) =>
          Array.from({ length: ranking.size }, (_, rank) => [ranking.idAt(rank), ranking.scoreAt(rank), ranking.queryTermsAt(rank)]);
        const unbounded = hits(compact.search(query, options, { atLeast }));
        const bounded = compact.search(query, options, { atLeast, limit: first, keep });
        expect(hits(bounded)).toEqual(unbounded.filter(([id], rank) => rank < first || keep.has(id as string)));
        expect(bounded.complete).toBe(unbounded.every(([id], rank) => rank < first || keep.has(id as string)));
      }),
      { numRuns: 100 },
    );
  });

  it("answers as MiniSearch does over the sample pack's terms, for their words cut short and misspelt", async () => {
    const loaded = await loadPack(samplePackDirectory());
    if (!loaded.ok) throw new Error('the sample pack does not load');
    const { terms } = loaded.pack;
    const indexes = bothIndexes(
      terms.map((term) => [
        `${term.term.en}\n${term.term['zh-Hans']}`,
        [
          ...term.synonyms.en,
          ...term.synonyms['zh-Hans'],
          ...(term.designations?.en ?? []),
          ...(term.designations?.['zh-Hans'] ?? []),
        ].join('\n'),
        `${term.definition.en}\n${term.definition['zh-Hans']}`,
      ]),
    );
    const words = [...new Set(terms.flatMap((term) => `${term.term.en} ${term.term['zh-Hans']} ${term.definition.en}`.split(/\s+/)))];
    const misspelt = fc
      .tuple(fc.constantFrom(...words), fc.nat(), fc.constantFrom('cut', 'drop', 'swap', 'as is'))
      .map(([word, at, change]) => {
        const i = at % word.length;
        if (change === 'cut') return word.slice(0, Math.max(3, i));
        if (change === 'drop') return word.slice(0, i) + word.slice(i + 1);
        if (change === 'swap') return word.slice(0, i) + 'e' + word.slice(i + 1);
        return word;
      });
    const query = fc.array(misspelt, { minLength: 1, maxLength: 4 }).map((queryWords) => queryWords.join(' '));
    fc.assert(
      fc.property(query, searchOptions, share, limit, (text, options, atLeast, first) =>
        expectSameAnswer(indexes, text, options, atLeast, first),
      ),
      { numRuns: 100 },
    );
  });

  it('tells which chosen documents reach a share of the best score of their own, as scoring them alone does, answering as it would without them', () => {
    // Many documents of few words, some with words found by prefix in hundreds of lists (read by document when asked
    // ASKS_BY_DOCUMENT times), and up to 80 chosen ones: most chosen documents are ruled out in the first pass, some are told apart
    // there, and the rest are scored with the answer.
    const letters = 'abcdefghijklmnopq';
    const compound = fc.constantFrom(...[...letters].flatMap((a) => [...letters].map((b) => `pay${a}${b}`)));
    const mixed = (maxWords: number) => fc.array(fc.oneof(compound, word, word), { maxLength: maxWords }).map((words) => words.join(' '));
    const large = fc.array(fc.tuple(mixed(4), mixed(3), mixed(8)), { minLength: 50, maxLength: 300 });
    const chosen = fc.uniqueArray(fc.nat(320), { maxLength: 80 }).map((numbers) => new Set(numbers.map((n) => `d${n}`)));
    const ownShare = fc.constantFrom(0, 0.05, 0.15, 0.3, 0.45, 1);
    const ask = fc.tuple(mixed(6), searchOptions, share, limit, kept, chosen, ownShare);
    fc.assert(
      fc.property(large, fc.array(ask, { minLength: 1, maxLength: 3 }), (documents, asks) => {
        const { compact } = bothIndexes(documents);
        const hits = (ranking: ReturnType<CompactTextIndex['search']>) =>
          Array.from({ length: ranking.size }, (_, rank) => [ranking.idAt(rank), ranking.scoreAt(rank), ranking.queryTermsAt(rank)]);
        for (let round = 0; round < ASKS_BY_DOCUMENT + 1; round++) {
          for (const [query, options, atLeast, first, keep, ids, own] of asks) {
            const without = compact.search(query, options, { atLeast, limit: first, keep });
            const ranking = compact.search(query, options, {
              atLeast,
              limit: first,
              keep,
              reaching: { documents: compact.documentsOf(ids), atLeast: own },
            });
            expect(hits(ranking)).toEqual(hits(without));
            expect(ranking.complete).toBe(without.complete);
            const all = compact.search(query, options);
            const floor = all.size > 0 ? all.scoreAt(0) * own : 0;
            const expected = [...compact.scoresOf(query, options, ids)].filter(([, score]) => score >= floor).map(([id]) => id);
            expect(ranking.reaching.map((document) => compact.idOf(document)).sort()).toEqual(expected.sort());
          }
        }
      }),
      { numRuns: 80 },
    );
  });

  it('scores chosen documents alone as MiniSearch scores them, leaving out those the query does not match', () => {
    const chosen = fc.uniqueArray(fc.nat(30), { maxLength: 8 }).map((numbers) => new Set(numbers.map((n) => `d${n}`)));
    fc.assert(
      fc.property(corpus, text(5), searchOptions, chosen, (documents, query, options, ids) => {
        const { miniSearch, compact } = bothIndexes(documents);
        const expected = new Map(
          miniSearch.search(query, options).flatMap((result) => (ids.has(result.id) ? [[result.id, result.score]] : [])),
        );
        const actual = compact.scoresOf(query, options, ids);
        expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [id, score] of actual) expect(Math.abs(score - expected.get(id)!)).toBeLessThanOrEqual(1e-9 * Math.abs(score));
      }),
      { numRuns: 300 },
    );
  });

  it('finds nothing for a query with no search terms, or in an empty index', () => {
    const options: TextSearchOptions = { boost: {}, prefix: () => true, fuzzy: () => 1, weights: { fuzzy: 0.5, prefix: 0.4 } };
    const compact = new CompactTextIndex(FIELDS, searchTerms, [{ id: 'a', fields: ['payout', '付款', 'the payment'] }]);
    expect(compact.search('the of and', options).size).toBe(0);
    expect(new CompactTextIndex(FIELDS, searchTerms, []).search('payout', options).size).toBe(0);
    expect(compact.search('payot', options).idAt(0)).toBe('a');
  });
});
