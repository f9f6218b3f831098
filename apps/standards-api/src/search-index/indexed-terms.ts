// What the search index keeps of each term (its id, its two names, the blocks it governs), for 100 000 terms
// at full size: the names side by side in two strings and the blocks as numbers in typed arrays, rather
// than three objects, an array and four strings a term (31 MB of heap; about 7 MB so). A term is made
// as an object when a search answers it (docs/decisions.md, issue 30).
import type { Localized } from '@stdreg/contracts';

/** A term as the index keeps it: its id, its names and the blocks it governs (its record stays in the database). */
export interface IndexedTerm {
  termId: string;
  term: Localized;
  standards: string[];
}

/** The terms of an index while it is built, added in index order; `done` makes the store. */
export class IndexedTermsBuild {
  private readonly termIds: string[] = [];
  private readonly english: string[] = [];
  private readonly chinese: string[] = [];
  private readonly sectionIds: string[] = [];
  private readonly numberOfSection = new Map<string, number>();
  private readonly governed: number[] = [];
  private readonly governedEnds: number[] = [];

  add(termId: string, term: Localized, standards: readonly string[]): void {
    this.termIds.push(termId);
    this.english.push(term.en);
    this.chinese.push(term['zh-Hans']);
    for (const sectionId of standards) {
      let number = this.numberOfSection.get(sectionId);
      if (number === undefined) this.numberOfSection.set(sectionId, (number = this.sectionIds.push(sectionId) - 1));
      this.governed.push(number);
    }
    this.governedEnds.push(this.governed.length);
  }

  done(): IndexedTerms {
    return new IndexedTerms(
      this.termIds,
      new PackedStrings(this.english),
      new PackedStrings(this.chinese),
      this.sectionIds,
      Int32Array.from(this.governed),
      Int32Array.from(this.governedEnds),
    );
  }
}

/** Strings one after the other in one string: string i from `ends[i - 1]` (0 for the first) to `ends[i]`. */
class PackedStrings {
  private readonly text: string;
  private readonly ends: Int32Array;

  constructor(strings: readonly string[]) {
    this.text = strings.join('');
    this.ends = new Int32Array(strings.length);
    let end = 0;
    strings.forEach((value, i) => (this.ends[i] = end += value.length));
  }

  at(i: number): string {
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}

export class IndexedTerms {
  private readonly positionOf: Map<string, number>;

  constructor(
    private readonly termIds: readonly string[],
    private readonly english: PackedStrings,
    private readonly chinese: PackedStrings,
    /** The blocks the terms govern, each once; a term's are numbers in this list. */
    private readonly sectionIds: readonly string[],
    /** The blocks term i governs: `governed` from `governedEnds[i - 1]` (0 for the first) to `governedEnds[i]`. */
    private readonly governed: Int32Array,
    private readonly governedEnds: Int32Array,
  ) {
    this.positionOf = new Map(termIds.map((termId, position) => [termId, position]));
  }

  get size(): number {
    return this.positionOf.size;
  }

  /** The term with this id, made anew at each call, or undefined. */
  get(termId: string): IndexedTerm | undefined {
    const i = this.positionOf.get(termId);
    if (i === undefined) return undefined;
    const standards: string[] = [];
    for (let at = i === 0 ? 0 : this.governedEnds[i - 1]!; at < this.governedEnds[i]!; at++)
      standards.push(this.sectionIds[this.governed[at]!]!);
    return { termId: this.termIds[i]!, term: { en: this.english.at(i), 'zh-Hans': this.chinese.at(i) }, standards };
  }
}
