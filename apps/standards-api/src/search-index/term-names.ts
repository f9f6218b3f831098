// The names of the registry's terms, found in a text without testing every name: each name is filed
// under a key the text must contain for the name to be in it (a Latin name's rarest word or pair of words
// side by side, a Chinese name's rarest pair of characters), so a text is tested only against the names
// filed under its own words, pairs of words and character pairs. The cost of a look-up follows the text
// and how many names share its keys, not the size of the glossary.
// At full size a release has about half a million names: they are kept as two strings (the Latin names
// one after the other, and the Chinese ones) and a few numbers a name in typed arrays, the names of a key
// side by side, rather than an object and a string per name (docs/decisions.md, issue 30).
import { foldText, isHan } from './search-text';

const WORD = /[\p{L}\p{N}]+/gu;
const ENDS_WITH_WORD_CHARACTER = /[\p{L}\p{N}]$/u;
const STARTS_WITH_WORD_CHARACTER = /^[\p{L}\p{N}]/u;
/** A name's flags: one of the term's own names; in the Chinese table (it has a Han character). */
const OWN = 1;
const HAN = 2;

/** A term as the name index reads it: its own names (en, zh-Hans) and the others it answers to (synonyms, designations). */
export interface NamedTerm {
  termId: string;
  names: string[];
  otherNames: string[];
}

/** A name while the index is built: folded and trimmed, as a text is folded; its term by position. */
interface NameToFile {
  name: string;
  term: number;
  flags: number;
  /** Which key the name is filed under, numbered as the keys are first met. */
  key: number;
}

export class TermNameIndex {
  /** The terms in the order given: a name's term is a position in it, and answers keep this order. */
  private readonly termIds: string[];
  /** The names one after the other: those with a Han character in one string, the others in another. */
  private readonly latinNames: string;
  private readonly hanNames: string;
  /** Name n is `nameLengths[n]` code units from `nameStarts[n]` in its table, of term `nameTerms[n]`. */
  private readonly nameStarts: Int32Array;
  private readonly nameLengths: Uint16Array | Int32Array;
  private readonly nameTerms: Int32Array;
  private readonly nameFlags: Uint8Array;
  /** The names filed under key k are those from `keyStarts[k]` to `keyStarts[k + 1]`, in the order given. */
  private readonly keyStarts: Int32Array;
  /** The keys by what a text must contain: a word, a pair of Chinese characters, the whole text (one-character names). */
  private readonly byWord = new Map<string, number>();
  private readonly byPair = new Map<string, number>();
  /** One-character names: never looked for in a text, only taken as the whole of one. */
  private readonly byCharacter = new Map<string, number>();
  /** Names without a letter or digit: no word to file them under, tested every time (none in a real pack). */
  private readonly unfiled: number;

  constructor(terms: NamedTerm[]) {
    this.termIds = terms.map((term) => term.termId);
    const names: NameToFile[] = [];
    terms.forEach((term, position) => {
      for (const [list, own] of [
        [term.names, OWN],
        [term.otherNames, 0],
      ] as const) {
        for (const raw of list) {
          const name = foldText(raw).trim();
          if (name.length > 0) names.push({ name, term: position, flags: own | (isHan(name) ? HAN : 0), key: 0 });
        }
      }
    });
    // How many names each key would file: at full size a generated name's three words are each in thousands of
    // names, and two of them side by side in tens.
    const wordFrequency = new Map<string, number>();
    const pairFrequency = new Map<string, number>();
    for (const { name, flags } of names) {
      const [keys, frequency] =
        flags & HAN ? [addCharacterPairs(name, new Set()), pairFrequency] : [addWordKeys(name.match(WORD) ?? [], new Set()), wordFrequency];
      for (const key of keys) frequency.set(key, (frequency.get(key) ?? 0) + 1);
    }
    /** The key filing the fewest names, the first of them (a word before a pair of words). */
    const rarest = (keys: Set<string>, frequency: Map<string, number>) => {
      let rarest: string | undefined;
      for (const key of keys) if (rarest === undefined || frequency.get(key)! < frequency.get(rarest)!) rarest = key;
      return rarest!;
    };
    let keyCount = 0;
    this.unfiled = keyCount++;
    const keyOf = (map: Map<string, number>, key: string) => {
      let number = map.get(key);
      if (number === undefined) map.set(key, (number = keyCount++));
      return number;
    };
    for (const filed of names) {
      const han = (filed.flags & HAN) !== 0;
      const words = han ? null : filed.name.match(WORD);
      if (filed.name.length < 2) filed.key = keyOf(this.byCharacter, filed.name);
      else if (han) filed.key = keyOf(this.byPair, rarest(addCharacterPairs(filed.name, new Set()), pairFrequency));
      else if (!words) filed.key = this.unfiled;
      else filed.key = keyOf(this.byWord, rarest(addWordKeys(words, new Set()), wordFrequency));
    }

    // A counting sort by key, stable: the names of a key stay in the order given.
    this.keyStarts = new Int32Array(keyCount + 1);
    for (const { key } of names) this.keyStarts[key + 1]!++;
    for (let key = 1; key <= keyCount; key++) this.keyStarts[key]! += this.keyStarts[key - 1]!;
    const next = this.keyStarts.slice(0, keyCount);
    const sorted: NameToFile[] = new Array(names.length);
    for (const filed of names) sorted[next[filed.key]!++] = filed;

    this.nameStarts = new Int32Array(sorted.length);
    const lengths = new Int32Array(sorted.length);
    this.nameTerms = new Int32Array(sorted.length);
    this.nameFlags = new Uint8Array(sorted.length);
    const latin: string[] = [];
    const hanNames: string[] = [];
    let latinLength = 0;
    let hanLength = 0;
    sorted.forEach(({ name, term, flags }, n) => {
      if (flags & HAN) {
        this.nameStarts[n] = hanLength;
        hanLength += name.length;
        hanNames.push(name);
      } else {
        this.nameStarts[n] = latinLength;
        latinLength += name.length;
        latin.push(name);
      }
      lengths[n] = name.length;
      this.nameTerms[n] = term;
      this.nameFlags[n] = flags;
    });
    this.nameLengths = lengths.every((length) => length <= 0xffff) ? Uint16Array.from(lengths) : lengths;
    this.latinNames = latin.join('');
    this.hanNames = hanNames.join('');
  }

  /**
   * The terms a text names by any of their names of two characters or more (a Chinese name anywhere in
   * it, a Latin one as whole words), each once, in the order the terms were given.
   */
  namedIn(text: string): string[] {
    const folded = foldText(text);
    const named = new Set<number>();
    for (const n of this.candidates(folded)) {
      const term = this.nameTerms[n]!;
      if (named.has(term)) continue;
      const name = this.nameOf(n);
      if (this.nameFlags[n]! & HAN ? folded.includes(name) : containsAsWords(folded, name)) named.add(term);
    }
    return [...named].sort((a, b) => a - b).map((term) => this.termIds[term]!);
  }

  /** The terms one of whose names is the whole text (folded and trimmed): `own` when it is one of the term's own names. */
  calledBy(text: string): Map<string, 'own' | 'other'> {
    const folded = foldText(text).trim();
    const called = new Map<string, 'own' | 'other'>();
    const character = this.byCharacter.get(folded);
    const names = character === undefined ? this.candidates(folded) : [...this.candidates(folded), ...this.namesOfKey(character)];
    for (const n of names) {
      if (this.nameLengths[n] !== folded.length || !this.tableOf(n).startsWith(folded, this.nameStarts[n]!)) continue;
      const termId = this.termIds[this.nameTerms[n]!]!;
      if (called.get(termId) !== 'own') called.set(termId, this.nameFlags[n]! & OWN ? 'own' : 'other');
    }
    return called;
  }

  /** Every name, folded and trimmed as the index keeps it, in the order filed. */
  *foldedNames(): Generator<string> {
    for (let n = 0; n < this.nameTerms.length; n++) yield this.nameOf(n);
  }

  /** The names that may be in a folded text: those filed under its words, pairs of words side by side and character pairs. */
  private candidates(folded: string): number[] {
    const candidates = this.namesOfKey(this.unfiled);
    const add = (key: number | undefined) => {
      if (key !== undefined) for (let n = this.keyStarts[key]!; n < this.keyStarts[key + 1]!; n++) candidates.push(n);
    };
    for (const key of addWordKeys(folded.match(WORD) ?? [], new Set())) add(this.byWord.get(key));
    for (const pair of addCharacterPairs(folded, new Set())) add(this.byPair.get(pair));
    return candidates;
  }

  private namesOfKey(key: number): number[] {
    const names: number[] = [];
    for (let n = this.keyStarts[key]!; n < this.keyStarts[key + 1]!; n++) names.push(n);
    return names;
  }

  private tableOf(n: number): string {
    return this.nameFlags[n]! & HAN ? this.hanNames : this.latinNames;
  }

  private nameOf(n: number): string {
    const start = this.nameStarts[n]!;
    return this.tableOf(n).slice(start, start + this.nameLengths[n]!);
  }
}

/**
 * Adds the keys of a Latin text's words to `keys`, each once: each word, then each two words side by side joined
 * by a space (which no word holds). A name found as whole words in a text has its words side by side there.
 */
function addWordKeys(words: readonly string[], keys: Set<string>): Set<string> {
  for (const word of words) keys.add(word);
  for (let i = 0; i + 1 < words.length; i++) keys.add(`${words[i]} ${words[i + 1]}`);
  return keys;
}

/** Adds each two code units side by side to `pairs`, each once: a Chinese name found in a text has each of its pairs there. */
function addCharacterPairs(text: string, pairs: Set<string>): Set<string> {
  for (let i = 0; i + 1 < text.length; i++) pairs.add(text.slice(i, i + 2));
  return pairs;
}

/** Whether `name` occurs in `text` with no letter or digit right before or after it. */
function containsAsWords(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    // Two code units either side hold the whole code point next to the name, surrogate pairs included.
    const before = text.slice(Math.max(0, at - 2), at);
    const after = text.slice(at + name.length, at + name.length + 2);
    if (!ENDS_WITH_WORD_CHARACTER.test(before) && !STARTS_WITH_WORD_CHARACTER.test(after)) return true;
  }
  return false;
}
