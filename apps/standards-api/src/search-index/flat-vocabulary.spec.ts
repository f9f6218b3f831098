import fc from 'fast-check';
import SearchableMap from 'minisearch/SearchableMap';
import { FlatVocabulary } from './flat-vocabulary';

const HAN_FIRST = /^\p{Script=Han}/u;
// Few characters, so tokens share prefixes, branch at every depth and lie one or two edits apart: Latin,
// accented, Han (one of them outside the BMP, two UTF-16 units) and a digit.
const CHARACTERS = ['a', 'b', 'e', 'é', 'è', 'n', 'p', 'y', '2', '付', '款', '算', '𠀀'];
const token = fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 7 }).map((characters) => characters.join(''));
/** Tokens in the order they were met (their numbers). */
const vocabulary = fc.uniqueArray(token, { minLength: 1, maxLength: 120 });
/** A term: one of the tokens, a prefix of one (empty and one-unit prefixes too), one changed, or any. */
const termOf = (tokens: string[]) =>
  fc.oneof(
    fc.constantFrom(...tokens),
    fc.tuple(fc.constantFrom(...tokens), fc.nat(7)).map(([text, length]) => text.slice(0, length)),
    fc
      .tuple(fc.constantFrom(...tokens), fc.nat(7), fc.constantFrom(...CHARACTERS), fc.constantFrom('drop', 'add', 'swap'))
      .map(([text, at, character, change]) => {
        const i = at % (text.length + 1);
        if (change === 'drop') return text.slice(0, i) + text.slice(i + 1);
        if (change === 'add') return text.slice(0, i) + character + text.slice(i);
        return text.slice(0, i) + character + text.slice(i + 1);
      }),
    token,
  );

/** MiniSearch's trees as the index had them: one of every token and two halves (Han first or not), set in token order. */
function trees(tokens: string[]) {
  const numbered = tokens.map((text, tokenNumber) => [text, tokenNumber] as [string, number]);
  return {
    whole: SearchableMap.from(numbered),
    hanFirst: SearchableMap.from(numbered.filter(([text]) => HAN_FIRST.test(text))),
    otherFirst: SearchableMap.from(numbered.filter(([text]) => !HAN_FIRST.test(text))),
  };
}

describe('the flat vocabulary', () => {
  it("finds a term's token as the tree does", () => {
    fc.assert(
      fc.property(
        vocabulary.chain((tokens) => fc.tuple(fc.constant(tokens), termOf(tokens))),
        ([tokens, term]) => {
          expect(FlatVocabulary.of(tokens).get(term)).toBe(term ? trees(tokens).whole.get(term) : undefined);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("lists a prefix's tokens in the order the tree's iterator gives them", () => {
    fc.assert(
      fc.property(
        vocabulary.chain((tokens) => fc.tuple(fc.constant(tokens), fc.array(termOf(tokens), { minLength: 1, maxLength: 8 }))),
        ([tokens, prefixes]) => {
          const flat = FlatVocabulary.of(tokens);
          const { hanFirst, otherFirst } = trees(tokens);
          for (const prefix of [...prefixes, '']) {
            const listed: [string, number][] = [];
            flat.eachWithPrefix(prefix, (tokenNumber, length) => listed.push([tokens[tokenNumber]!, length]));
            const half = HAN_FIRST.test(prefix) ? hanFirst : otherFirst;
            expect(listed).toEqual([...half.atPrefix(prefix).keys()].map((text) => [text, text.length]));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds the tokens within 0, 1 or 2 edits, with their distances, in the order the tree's typo search finds them", () => {
    fc.assert(
      fc.property(
        vocabulary.chain((tokens) => fc.tuple(fc.constant(tokens), fc.array(termOf(tokens), { minLength: 1, maxLength: 8 }))),
        fc.constantFrom(0, 1, 2),
        ([tokens, terms], maxDistance) => {
          const flat = FlatVocabulary.of(tokens);
          const { whole, otherFirst } = trees(tokens);
          for (const term of terms) {
            for (const [tree, otherFirstOnly] of [
              [whole, false],
              [otherFirst, true],
            ] as const) {
              const { tokens: found, lengths, distances } = flat.withinDistance(term, maxDistance, otherFirstOnly);
              const expected = [...tree.fuzzyGet(term, maxDistance)].map(([text, [tokenNumber, distance]]) => [
                tokenNumber,
                text.length,
                distance,
              ]);
              expect(found.map((tokenNumber, i) => [tokenNumber, lengths[i], distances[i]])).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers over a vocabulary of many words that share long prefixes and of thousands of Han characters', () => {
    const latin = Array.from({ length: 3_000 }, (_, i) => `pay${'ment'.slice(0, i % 5)}${i.toString(36)}`);
    const han = Array.from(
      { length: 2_000 },
      (_, i) => String.fromCharCode(0x4e00 + i) + (i % 3 ? String.fromCharCode(0x4e00 + i * 7) : ''),
    );
    const tokens = [
      ...new Set(
        [...latin, ...han].sort(
          (a, b) => ((a.length * 31 + a.charCodeAt(a.length - 1)) % 97) - ((b.length * 31 + b.charCodeAt(b.length - 1)) % 97),
        ),
      ),
    ];
    const flat = FlatVocabulary.of(tokens);
    const { whole, hanFirst, otherFirst } = trees(tokens);
    for (const term of ['pa', 'paym', 'payment1', 'paymnt2a', '一', '丁', 'p']) {
      const listed: string[] = [];
      flat.eachWithPrefix(term, (tokenNumber) => listed.push(tokens[tokenNumber]!));
      expect(listed).toEqual([...(HAN_FIRST.test(term) ? hanFirst : otherFirst).atPrefix(term).keys()]);
      for (const maxDistance of [1, 2]) {
        expect(flat.withinDistance(term, maxDistance, false).tokens).toEqual(
          [...whole.fuzzyGet(term, maxDistance).values()].map(([n]) => n),
        );
      }
    }
  });
});
