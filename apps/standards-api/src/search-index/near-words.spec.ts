import fc from 'fast-check';
import { editDistance, MOST_WORDS_COMPARED, NearWords, trigramsOf } from './near-words';

/** What nearest must answer: every word compared, fewest edits, then most trigrams shared, then first. */
function nearestByTestingEveryWord(words: string[], word: string): string | undefined {
  const grams = trigramsOf(word);
  const allowed = [...word].length <= 5 ? 1 : [...word].length <= 9 ? 2 : 3;
  let best: { word: string; edits: number; similarity: number } | undefined;
  for (const candidate of [...new Set(words)]) {
    const theirs = trigramsOf(candidate);
    const similarity = (2 * grams.filter((gram) => theirs.includes(gram)).length) / (grams.length + theirs.length);
    const edits = editDistance([...word], [...candidate], allowed);
    if (similarity < 0.3 || edits === undefined) continue;
    if (best === undefined || edits < best.edits || (edits === best.edits && similarity > best.similarity))
      best = { word: candidate, edits, similarity };
  }
  return best?.word;
}

describe('the near words of the term names', () => {
  const nearWords = new NearWords(['ledger', 'settlement run', 'split rule', 'legal entity', 'basis point', '基点', '结算批次']);

  it('replaces a word misspelt beyond the index typo tolerance by the nearest word of a name', () => {
    expect(nearWords.nearest('legder')).toBe('ledger');
    expect(nearWords.corrected('setlment rul')).toBe('settlement rule');
    expect(nearWords.corrected('legal entiyt')).toBe('legal entity');
  });

  it('compares Chinese by its characters', () => {
    expect(nearWords.corrected('基典')).toBe('基点');
    expect(nearWords.corrected('结算批刺')).toBe('结算批次');
  });

  it('leaves words a name holds, and words no name is near, as they are', () => {
    expect(nearWords.corrected('ledger')).toBeUndefined();
    expect(nearWords.corrected('banana zzqx')).toBeUndefined();
    expect(nearWords.nearest('legal')).toBe('legal');
  });

  it('compares the first words of a look-up only, however long the text', () => {
    const filler = Array.from({ length: MOST_WORDS_COMPARED }, () => 'zzqx').join(' ');
    expect(nearWords.corrected(`legder ${filler}`)).toBe(`ledger ${filler}`);
    expect(nearWords.corrected(`${filler} legder`)).toBeUndefined();
  });

  it('counts an adjacent swap as one edit and gives up beyond the edits allowed', () => {
    expect(editDistance([...'legder'], [...'ledger'], 2)).toBe(1);
    expect(editDistance([...'kitten'], [...'sitting'], 3)).toBe(3);
    expect(editDistance([...'kitten'], [...'sitting'], 2)).toBeUndefined();
  });

  it('finds the word that comparing every word finds (property)', () => {
    // Latin words of three letters or more and runs of Chinese characters: the words a name gives.
    const word = fc.oneof(fc.stringMatching(/^[abcd]{3,8}$/), fc.stringMatching(/^[基点批]{1,6}$/u));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 20 }), word, (words, lookUp) => {
        expect(new NearWords(words).nearest(lookUp)).toBe(nearestByTestingEveryWord(words, lookUp));
      }),
      { numRuns: 300 },
    );
  });
});
