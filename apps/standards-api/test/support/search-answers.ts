import fc from 'fast-check';
import type { ContentPack } from '@stdreg/registry-content';
import type { RegistrySearchIndex } from '../../src/search-index/registry-search-index';

/** The words and names of a pack's own texts (terms, blocks, roles, tasks), both languages, for queries that find things. */
export function packWords(pack: ContentPack): string[] {
  const texts: string[] = [];
  for (const term of pack.terms) {
    texts.push(term.term.en, term.term['zh-Hans'], term.definition.en, term.definition['zh-Hans'], term.termId);
    texts.push(
      ...term.synonyms.en,
      ...term.synonyms['zh-Hans'],
      ...(term.designations?.en ?? []),
      ...(term.designations?.['zh-Hans'] ?? []),
    );
  }
  for (const block of pack.standards) {
    texts.push(block.title.en, block.title['zh-Hans'], ...block.tags);
    for (const clause of block.clauses) texts.push(clause.text.en, clause.text['zh-Hans']);
  }
  for (const role of pack.roles) texts.push(role.role, role.name.en, role.name['zh-Hans'], role.description.en);
  const words = new Set<string>();
  for (const text of texts) {
    words.add(text);
    for (const word of text.split(/[\s,.;:()"'，。；：（）、]+/u)) if (word) words.add(word);
  }
  return [...words].sort();
}

/** A query: a few of the pack's words (some cut short or misspelt, as a user types them), random text, or both. */
export function searchQuery(words: string[]): fc.Arbitrary<string> {
  const packWord = fc.constantFrom(...words);
  const typed = fc.oneof(
    { weight: 4, arbitrary: packWord },
    { weight: 1, arbitrary: fc.tuple(packWord, fc.nat()).map(([word, at]) => word.slice(0, Math.max(1, word.length - 1 - (at % 3)))) },
    {
      weight: 1,
      arbitrary: fc.tuple(packWord, fc.nat()).map(([word, at]) => word.slice(0, at % word.length) + word.slice((at % word.length) + 1)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  return fc.array(typed, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
}

/**
 * Expects two indexes to answer a run of queries the same: terms (the first page, and a ranking read past its
 * first hits), roles, and standards (alignment, each sentence's clauses, conditions and departures).
 */
export function expectSameAnswers(expected: RegistrySearchIndex, actual: RegistrySearchIndex, words: string[], numRuns: number): void {
  expect(actual.size).toEqual(expected.size);
  fc.assert(
    fc.property(searchQuery(words), fc.integer({ min: 1, max: 12 }), (query, limit) => {
      expect(actual.searchTerms(query, limit)).toEqual(expected.searchTerms(query, limit));
      const [rankedA, rankedB] = [expected.rankTerms(query, 4), actual.rankTerms(query, 4)];
      for (let position = 0; position < 80; position += 7) expect(rankedB.hitAt(position)).toEqual(rankedA.hitAt(position));
      expect(actual.searchRoles(query, limit)).toEqual(expected.searchRoles(query, limit));
      expect(actual.searchStandards(query, limit)).toEqual(expected.searchStandards(query, limit));
    }),
    { numRuns },
  );
}
