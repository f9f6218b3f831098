// The names of the registry's terms, found in a text without testing every name: each name is filed
// under a key the text must contain for the name to be in it (a Latin name's rarest word, a Chinese
// name's first two characters), so a text is tested only against the names filed under its own words
// and character pairs. The cost of a look-up follows the text, not the size of the glossary.
import { foldText, isHan } from './search-text';

const WORD = /[\p{L}\p{N}]+/gu;
const ENDS_WITH_WORD_CHARACTER = /[\p{L}\p{N}]$/u;
const STARTS_WITH_WORD_CHARACTER = /^[\p{L}\p{N}]/u;

/** A term as the name index reads it: its own names (en, zh-Hans) and the others it answers to (synonyms, designations). */
export interface NamedTerm {
  termId: string;
  names: string[];
  otherNames: string[];
}

interface FiledName {
  /** Folded and trimmed, as a text is folded. */
  name: string;
  termId: string;
  own: boolean;
  han: boolean;
}

export class TermNameIndex {
  private readonly byWord = new Map<string, FiledName[]>();
  private readonly byPair = new Map<string, FiledName[]>();
  /** One-character names: never looked for in a text, only taken as the whole of one. */
  private readonly byCharacter = new Map<string, FiledName[]>();
  /** Names without a letter or digit: no word to file them under, tested every time (none in a real pack). */
  private readonly unfiled: FiledName[] = [];
  private readonly order = new Map<string, number>();

  constructor(terms: NamedTerm[]) {
    const names: FiledName[] = [];
    terms.forEach((term, position) => {
      this.order.set(term.termId, position);
      for (const [list, own] of [
        [term.names, true],
        [term.otherNames, false],
      ] as const) {
        for (const raw of list) {
          const name = foldText(raw).trim();
          if (name.length > 0) names.push({ name, termId: term.termId, own, han: isHan(name) });
        }
      }
    });
    const wordFrequency = new Map<string, number>();
    for (const { name, han } of names) {
      if (han) continue;
      for (const word of new Set(name.match(WORD) ?? [])) wordFrequency.set(word, (wordFrequency.get(word) ?? 0) + 1);
    }
    for (const filed of names) {
      const words = filed.han ? null : filed.name.match(WORD);
      if (filed.name.length < 2) file(this.byCharacter, filed.name, filed);
      else if (filed.han) file(this.byPair, filed.name.slice(0, 2), filed);
      else if (!words) this.unfiled.push(filed);
      else
        file(
          this.byWord,
          words.reduce((rarest, word) => (wordFrequency.get(word)! < wordFrequency.get(rarest)! ? word : rarest)),
          filed,
        );
    }
  }

  /**
   * The terms a text names by any of their names of two characters or more (a Chinese name anywhere in
   * it, a Latin one as whole words), each once, in the order the terms were given.
   */
  namedIn(text: string): string[] {
    const folded = foldText(text);
    const named = new Set<string>();
    for (const { name, termId, han } of this.candidates(folded)) {
      if (!named.has(termId) && (han ? folded.includes(name) : containsAsWords(folded, name))) named.add(termId);
    }
    return [...named].sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }

  /** The terms one of whose names is the whole text (folded and trimmed): `own` when it is one of the term's own names. */
  calledBy(text: string): Map<string, 'own' | 'other'> {
    const folded = foldText(text).trim();
    const called = new Map<string, 'own' | 'other'>();
    for (const { name, termId, own } of [...this.candidates(folded), ...(this.byCharacter.get(folded) ?? [])]) {
      if (name === folded && called.get(termId) !== 'own') called.set(termId, own ? 'own' : 'other');
    }
    return called;
  }

  /** The names that may be in a folded text: those filed under its words and character pairs. */
  private candidates(folded: string): FiledName[] {
    const candidates = [...this.unfiled];
    for (const word of new Set(folded.match(WORD) ?? [])) candidates.push(...(this.byWord.get(word) ?? []));
    const pairs = new Set<string>();
    for (let i = 0; i + 1 < folded.length; i++) pairs.add(folded.slice(i, i + 2));
    for (const pair of pairs) candidates.push(...(this.byPair.get(pair) ?? []));
    return candidates;
  }
}

function file(map: Map<string, FiledName[]>, key: string, filed: FiledName): void {
  const list = map.get(key);
  if (list) list.push(filed);
  else map.set(key, [filed]);
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
