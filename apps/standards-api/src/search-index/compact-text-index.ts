// A full-text index that answers as MiniSearch does (its vocabulary tree, its prefix and typo matches, its
// BM25+ scores, its order) but keeps the postings in flat typed arrays instead of a Map of fields of a Map
// of documents per token, and scores into arrays indexed by document number instead of a result object per
// document: a release of 100 000 bilingual terms has millions of postings.
import SearchableMap from 'minisearch/SearchableMap';

/** A document to index: its id and the text of each field, in the index's field order. */
export interface TextDocument {
  id: string;
  fields: readonly string[];
}

/** Which query terms are also looked up by prefix or by typo, as MiniSearch's options of the same names. */
export interface TextSearchOptions {
  boost: Record<string, number>;
  prefix: (term: string) => boolean;
  /** false for none; a fraction of the term's length (at most 6) or a number of edits. */
  fuzzy: (term: string) => boolean | number;
  weights: { fuzzy: number; prefix: number };
}

// MiniSearch's defaults: BM25+ parameters and the most edits a fractional fuzziness allows.
const K = 1.2;
const B = 0.7;
const D = 0.5;
const MAX_FUZZY = 6;
const DOCUMENTS_PER_BATCH = 500;

/** The documents a query matches, best first (ties in the order MiniSearch gives them: the order first matched). */
export class TextRanking {
  constructor(
    private readonly index: CompactTextIndex,
    private readonly ranked: Int32Array,
    private readonly rankedScores: Float64Array,
    private readonly matchedTerms: (document: number) => string[],
  ) {}

  get size(): number {
    return this.ranked.length;
  }

  idAt(rank: number): string {
    return this.index.idOf(this.ranked[rank]!);
  }

  scoreAt(rank: number): number {
    return this.rankedScores[rank]!;
  }

  /** The query terms that found the document, in the query's order (MiniSearch's queryTerms). */
  queryTermsAt(rank: number): string[] {
    return this.matchedTerms(this.ranked[rank]!);
  }
}

/** Growable column of 32-bit integers, for the postings while the index is built. */
class IntColumn {
  values = new Int32Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

/** Counts in 16 bits when they fit (they always do for registry text), else in 32. */
function compactCounts(counts: Int32Array): Uint16Array | Int32Array {
  let max = 0;
  for (const count of counts) if (count > max) max = count;
  return max <= 0xffff ? Uint16Array.from(counts) : counts;
}

/** The scores of one search, by document number, and the distinct query terms each document matched. */
class SearchScratch {
  readonly termScores: Float64Array;
  readonly totalScores: Float64Array;
  readonly inTerm: Uint8Array;
  readonly isMatched: Uint8Array;
  readonly matchedTermCount: Uint16Array;
  /**
   * A document's matched terms as a chain of nodes (a term and the next node), in the order matched. Node 0
   * is no node, so the arrays by document start as allocated (zeros), never written through.
   */
  private readonly firstNode: Int32Array;
  private readonly lastNode: Int32Array;
  private readonly nodeTerm: number[] = [0];
  private readonly nodeNext: number[] = [0];

  constructor(documentCount: number) {
    this.termScores = new Float64Array(documentCount);
    this.totalScores = new Float64Array(documentCount);
    this.inTerm = new Uint8Array(documentCount);
    this.isMatched = new Uint8Array(documentCount);
    this.matchedTermCount = new Uint16Array(documentCount);
    this.firstNode = new Int32Array(documentCount);
    this.lastNode = new Int32Array(documentCount);
  }

  addMatchedTerm(document: number, term: number): void {
    for (let node = this.firstNode[document]!; node > 0; node = this.nodeNext[node]!) if (this.nodeTerm[node] === term) return;
    const node = this.nodeTerm.push(term) - 1;
    this.nodeNext.push(0);
    const last = this.lastNode[document]!;
    if (last === 0) this.firstNode[document] = node;
    else this.nodeNext[last] = node;
    this.lastNode[document] = node;
    this.matchedTermCount[document]!++;
  }

  matchedTerms(document: number): number[] {
    const terms: number[] = [];
    for (let node = this.firstNode[document]!; node > 0; node = this.nodeNext[node]!) terms.push(this.nodeTerm[node]!);
    return terms;
  }
}

export class CompactTextIndex {
  private readonly fieldCount: number;
  private readonly ids: string[] = [];
  private readonly vocabulary = new SearchableMap<number>();
  /** Postings of token t in field f: documents and frequencies at offsets[t * fieldCount + f] up to the next offset. */
  private readonly offsets: Int32Array;
  private readonly postingDocuments: Int32Array;
  private readonly postingFrequencies: Uint16Array | Int32Array;
  /** Distinct tokens of document d in field f at d * fieldCount + f (MiniSearch's field length). */
  private readonly fieldLengths: Uint16Array | Int32Array;
  private readonly averageFieldLengths: Float64Array;

  constructor(
    private readonly fields: readonly string[],
    private readonly tokenize: (text: string) => string[],
    documents: Iterable<TextDocument>,
    /** The tokens of many texts at once, as tokenize gives them one by one (cheaper over a whole release). */
    tokenizeAll: (texts: string[]) => string[][] = (texts) => texts.map(tokenize),
  ) {
    this.fieldCount = fields.length;
    const keys = new IntColumn();
    const postingDocuments = new IntColumn();
    const frequencies = new IntColumn();
    const lengths = new IntColumn();
    const averages = new Float64Array(this.fieldCount);
    const frequencyOfToken = new Map<number, number>();
    // The tree's look-up scans a node's children (thousands of Chinese characters at its root): while
    // building, a hash map answers whether a token is known, and the tree is only written to. Counted here
    // too, as SearchableMap's size walks the whole tree after every change.
    const numberOfToken = new Map<string, number>();
    let tokenCount = 0;
    for (const { document, tokensOfFields } of this.tokenized(documents, tokenizeAll)) {
      const documentNumber = this.ids.length;
      this.ids.push(document.id);
      for (let field = 0; field < this.fieldCount; field++) {
        frequencyOfToken.clear();
        // Tokens are numbered in the order MiniSearch first meets them, so the vocabulary tree is built alike
        // and its prefix and typo look-ups list the same tokens in the same order.
        for (const token of tokensOfFields[field]!) {
          if (!token) continue;
          let tokenNumber = numberOfToken.get(token);
          if (tokenNumber === undefined) {
            numberOfToken.set(token, (tokenNumber = tokenCount++));
            this.vocabulary.set(token, tokenNumber);
          }
          frequencyOfToken.set(tokenNumber, (frequencyOfToken.get(tokenNumber) ?? 0) + 1);
        }
        const length = frequencyOfToken.size;
        lengths.push(length);
        averages[field] = (averages[field]! * documentNumber + length) / (documentNumber + 1);
        for (const [tokenNumber, frequency] of frequencyOfToken) {
          keys.push(tokenNumber * this.fieldCount + field);
          postingDocuments.push(documentNumber);
          frequencies.push(frequency);
        }
      }
    }
    this.averageFieldLengths = averages;
    this.fieldLengths = compactCounts(lengths.values.subarray(0, lengths.length));

    // A counting sort by token and field; stable, so each list stays in document order as MiniSearch's Maps are.
    const postingCount = keys.length;
    this.offsets = new Int32Array(tokenCount * this.fieldCount + 1);
    for (let i = 0; i < postingCount; i++) this.offsets[keys.values[i]! + 1]!++;
    for (let key = 1; key < this.offsets.length; key++) this.offsets[key]! += this.offsets[key - 1]!;
    const next = this.offsets.slice(0, -1);
    this.postingDocuments = new Int32Array(postingCount);
    const sortedFrequencies = new Int32Array(postingCount);
    for (let i = 0; i < postingCount; i++) {
      const at = next[keys.values[i]!]!++;
      this.postingDocuments[at] = postingDocuments.values[i]!;
      sortedFrequencies[at] = frequencies.values[i]!;
    }
    this.postingFrequencies = compactCounts(sortedFrequencies);
  }

  /** The documents with the tokens of each of their fields, tokenized a batch at a time. */
  private *tokenized(documents: Iterable<TextDocument>, tokenizeAll: (texts: string[]) => string[][]) {
    let batch: TextDocument[] = [];
    const tokenizeBatch = () => {
      const tokens = tokenizeAll(batch.flatMap((document) => this.fields.map((_, field) => document.fields[field] ?? '')));
      return batch.map((document, i) => ({ document, tokensOfFields: tokens.slice(i * this.fieldCount, (i + 1) * this.fieldCount) }));
    };
    for (const document of documents) {
      batch.push(document);
      if (batch.length === DOCUMENTS_PER_BATCH) {
        yield* tokenizeBatch();
        batch = [];
      }
    }
    yield* tokenizeBatch();
  }

  idOf(documentNumber: number): string {
    return this.ids[documentNumber]!;
  }

  /**
   * The documents matching any term of the query (OR), scored and ordered as MiniSearch's search; with
   * `atLeast`, only those scoring at least that share of the best (only they are ordered).
   */
  search(query: string, options: TextSearchOptions, atLeast = 0): TextRanking {
    const queryTerms = this.tokenize(query).filter((term) => term);
    const boosts = this.fields.map((field) => (Object.hasOwn(options.boost, field) ? options.boost[field] : 0) || 1);
    const { weights } = options;
    const scratch = new SearchScratch(this.ids.length);
    const matched: number[] = [];
    const distinctTerms: string[] = [];

    for (const term of queryTerms) {
      let distinct = distinctTerms.indexOf(term);
      if (distinct < 0) distinct = distinctTerms.push(term) - 1;
      const termMatched: number[] = [];
      const score = (tokenNumber: number, weight: number) => this.scoreToken(tokenNumber, weight, boosts, scratch, termMatched);

      const exact = this.vocabulary.get(term);
      if (exact !== undefined) score(exact, 1);
      const fuzziness = options.fuzzy(term);
      let fuzzyMatches: Map<string, [number, number]> | undefined;
      if (fuzziness) {
        const fraction = fuzziness === true ? 0.2 : fuzziness;
        const maxDistance = fraction < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fraction)) : fraction;
        if (maxDistance) fuzzyMatches = this.vocabulary.fuzzyGet(term, maxDistance);
      }
      if (options.prefix(term)) {
        for (const [token, tokenNumber] of this.vocabulary.atPrefix(term)) {
          const distance = token.length - term.length;
          if (!distance) continue;
          fuzzyMatches?.delete(token);
          score(tokenNumber, (weights.prefix * token.length) / (token.length + 0.3 * distance));
        }
      }
      if (fuzzyMatches) {
        for (const [token, [tokenNumber, distance]] of fuzzyMatches) {
          if (!distance) continue;
          score(tokenNumber, (weights.fuzzy * token.length) / (token.length + distance));
        }
      }

      // This term's scores are summed first and then added to the document's, as MiniSearch combines them.
      for (const document of termMatched) {
        scratch.inTerm[document] = 0;
        if (!scratch.isMatched[document]) {
          scratch.isMatched[document] = 1;
          matched.push(document);
        }
        scratch.totalScores[document]! += scratch.termScores[document]!;
        scratch.termScores[document] = 0;
        scratch.addMatchedTerm(document, distinct);
      }
    }

    const finalScores = new Float64Array(matched.length);
    for (let position = 0; position < matched.length; position++) {
      const document = matched[position]!;
      finalScores[position] = scratch.totalScores[document]! * (scratch.matchedTermCount[document] || 1);
    }
    let best = 0;
    for (const score of finalScores) if (score > best) best = score;
    const floor = best * atLeast;
    const order = Int32Array.from(matched.keys())
      .filter((position) => finalScores[position]! >= floor)
      .sort((a, b) => finalScores[b]! - finalScores[a]! || a - b);
    const ranked = new Int32Array(order.length);
    const rankedScores = new Float64Array(order.length);
    order.forEach((position, rank) => {
      ranked[rank] = matched[position]!;
      rankedScores[rank] = finalScores[position]!;
    });
    return new TextRanking(this, ranked, rankedScores, (document) => scratch.matchedTerms(document).map((term) => distinctTerms[term]!));
  }

  /** Adds a matched token's BM25+ score, per field, to each document it occurs in (MiniSearch's termResults). */
  private scoreToken(tokenNumber: number, weight: number, boosts: number[], scratch: SearchScratch, termMatched: number[]): void {
    const documentCount = this.ids.length;
    for (let field = 0; field < this.fieldCount; field++) {
      const start = this.offsets[tokenNumber * this.fieldCount + field]!;
      const end = this.offsets[tokenNumber * this.fieldCount + field + 1]!;
      if (start === end) continue;
      const matching = end - start;
      const averageLength = this.averageFieldLengths[field]!;
      const inverseDocumentFrequency = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
      const fieldWeight = weight * boosts[field]!;
      for (let posting = start; posting < end; posting++) {
        const document = this.postingDocuments[posting]!;
        const frequency = this.postingFrequencies[posting]!;
        const length = this.fieldLengths[document * this.fieldCount + field]!;
        const bm25 = inverseDocumentFrequency * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * length) / averageLength)));
        if (!scratch.inTerm[document]) {
          scratch.inTerm[document] = 1;
          termMatched.push(document);
        }
        scratch.termScores[document]! += fieldWeight * bm25;
      }
    }
  }
}
