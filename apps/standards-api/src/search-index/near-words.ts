// The words of the registry's term names, found by character similarity: a look-up that the term index
// finds nothing for (a word misspelt beyond its typo tolerance, "setlment rul") has its unknown words
// replaced by the nearest words of the names, compared by their character trigrams. Latin names give their
// words (a full-size registry's names share a few thousand), Chinese names their runs of Han characters.
// Kept as one string and typed arrays, with the entries of a trigram side by side, as the term-name index is.
import { isHan } from './search-text';

const WORD = /[\p{L}\p{N}]+/gu;
const HAN_RUN = /\p{Script=Han}+/gu;
/** Words this short are left as written: a typo of two letters is another word. */
const SHORTEST_WORD = 3;
/** The share of their trigrams a word must have in common with a look-up's (Dice's coefficient) to be compared with it. */
const LEAST_SIMILARITY = 0.3;
/**
 * The words of one look-up compared at most: a look-up names a term in a few words, and each comparison reads
 * every name word sharing a trigram (thousands at full size), so a 4 000-character text of made-up words must
 * not pay it a thousand times. Words past it are left as written.
 */
export const MOST_WORDS_COMPARED = 16;

/** The edits (a letter added, dropped, changed, or two swapped) a look-up's word may be from a name's word. */
function editsAllowed(length: number): number {
  return length <= 5 ? 1 : length <= 9 ? 2 : 3;
}

const UNIT = 0x10000;

/**
 * The trigrams of a word, padded as pg_trgm pads them (two spaces before, one after), each once: three UTF-16
 * code units as one number (48 bits, exact in a double), which a Map files without making a string.
 */
export function trigramsOf(word: string): number[] {
  const padded = `  ${word} `;
  const grams = new Set<number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    grams.add((padded.charCodeAt(i) * UNIT + padded.charCodeAt(i + 1)) * UNIT + padded.charCodeAt(i + 2));
  }
  return [...grams];
}

export class NearWords {
  /** The words one after the other; word w is `wordLengths[w]` code units from `wordStarts[w]`. */
  private readonly words: string;
  private readonly wordStarts: Int32Array;
  private readonly wordLengths: Uint16Array;
  /** How many distinct trigrams each word has. */
  private readonly gramCounts: Uint16Array;
  /** The words of trigram g are `postings[gramStarts[g]]` up to `postings[gramStarts[g + 1]]`. */
  private readonly gramNumbers = new Map<number, number>();
  private readonly gramStarts: Int32Array;
  private readonly postings: Int32Array;

  /** Builds from the terms' names as foldText folds them (any order; a word met twice is kept once). */
  constructor(foldedNames: Iterable<string>) {
    const known = new Set<string>();
    for (const name of foldedNames) {
      for (const word of name.match(WORD) ?? []) {
        if (isHan(word)) for (const run of word.match(HAN_RUN) ?? []) known.add(run);
        else if (word.length >= SHORTEST_WORD) known.add(word);
      }
    }
    const words = [...known];
    this.words = words.join('');
    this.wordStarts = new Int32Array(words.length);
    this.wordLengths = new Uint16Array(words.length);
    this.gramCounts = new Uint16Array(words.length);
    const gramsOfWord: number[][] = [];
    const perGram: number[] = [];
    let start = 0;
    words.forEach((word, w) => {
      this.wordStarts[w] = start;
      this.wordLengths[w] = Math.min(word.length, 0xffff);
      start += word.length;
      const grams = trigramsOf(word).map((gram) => {
        let number = this.gramNumbers.get(gram);
        if (number === undefined) {
          this.gramNumbers.set(gram, (number = perGram.length));
          perGram.push(0);
        }
        perGram[number]!++;
        return number;
      });
      this.gramCounts[w] = Math.min(grams.length, 0xffff);
      gramsOfWord.push(grams);
    });
    this.gramStarts = new Int32Array(perGram.length + 1);
    perGram.forEach((count, g) => (this.gramStarts[g + 1] = this.gramStarts[g]! + count));
    this.postings = new Int32Array(this.gramStarts[perGram.length]!);
    const next = this.gramStarts.slice(0, perGram.length);
    gramsOfWord.forEach((grams, w) => {
      for (const g of grams) this.postings[next[g]!++] = w;
    });
  }

  /** How many words it holds and the bytes of its arrays and string (the gram map apart). */
  get size(): { words: number; grams: number; bytes: number } {
    const arrays = [this.wordStarts, this.wordLengths, this.gramCounts, this.gramStarts, this.postings];
    return {
      words: this.wordStarts.length,
      grams: this.gramNumbers.size,
      bytes: arrays.reduce((sum, array) => sum + array.byteLength, 0) + this.words.length * 2,
    };
  }

  /**
   * The folded text with each word (or Han run) that no name holds replaced by the most similar one a name
   * holds, when one is similar enough (the first MOST_WORDS_COMPARED words only); undefined when nothing is replaced.
   */
  corrected(folded: string): string | undefined {
    let changed = false;
    let compared = 0;
    const replaced = folded.replace(WORD, (word) =>
      word.replace(isHan(word) ? HAN_RUN : /^.+$/u, (part) => {
        if ((!isHan(part) && part.length < SHORTEST_WORD) || compared === MOST_WORDS_COMPARED) return part;
        compared++;
        const nearest = this.nearest(part);
        if (nearest === undefined || nearest === part) return part;
        changed = true;
        return nearest;
      }),
    );
    return changed ? replaced : undefined;
  }

  /**
   * The word fewest edits from `word` (within editsAllowed) among those sharing enough of its trigrams; of
   * equals, the one sharing most, then the first built. Itself if a name holds it; undefined if none is near.
   */
  nearest(word: string): string | undefined {
    const grams = trigramsOf(word);
    const shared = new Map<number, number>();
    for (const gram of grams) {
      const g = this.gramNumbers.get(gram);
      if (g === undefined) continue;
      for (let at = this.gramStarts[g]!; at < this.gramStarts[g + 1]!; at++) {
        const w = this.postings[at]!;
        shared.set(w, (shared.get(w) ?? 0) + 1);
      }
    }
    const characters = [...word];
    const allowed = editsAllowed(characters.length);
    let best: { word: string; edits: number; similarity: number; w: number } | undefined;
    for (const [w, count] of shared) {
      const similarity = (2 * count) / (grams.length + this.gramCounts[w]!);
      if (similarity < LEAST_SIMILARITY || Math.abs(this.wordLengths[w]! - word.length) > allowed) continue;
      const start = this.wordStarts[w]!;
      const candidate = this.words.slice(start, start + this.wordLengths[w]!);
      const edits = editDistance(characters, [...candidate], best?.edits ?? allowed);
      if (edits === undefined) continue;
      if (
        best === undefined ||
        edits < best.edits ||
        (edits === best.edits && (similarity > best.similarity || (similarity === best.similarity && w < best.w)))
      )
        best = { word: candidate, edits, similarity, w };
    }
    return best?.word;
  }
}

/** The optimal string alignment distance of two words (adjacent swaps count one), or undefined above `most`. */
export function editDistance(a: string[], b: string[], most: number): number | undefined {
  if (Math.abs(a.length - b.length) > most) return undefined;
  let beforeLast = new Array<number>(b.length + 1).fill(0);
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, beforeLast[j - 2]! + 1);
      row.push(distance);
      least = Math.min(least, distance);
    }
    if (least > most) return undefined;
    beforeLast = last;
    last = row;
  }
  return last[b.length]! <= most ? last[b.length] : undefined;
}
