// A full-text index that answers as MiniSearch does (its vocabulary tree, its prefix and typo matches, its
// BM25+ scores, its order) but keeps the postings in flat typed arrays instead of a Map of fields of a Map
// of documents per token, and scores into arrays indexed by document number instead of a result object per
// document: a release of 100 000 bilingual terms has millions of postings.
import { DocumentsAboveReach } from './documents-above-reach';
import { kthLargest } from './kth-largest';
import { placesByDocument } from './places-by-document';
import { reusedFloat64Array, reusedInt32Array } from './reused-array';
import { FlatVocabulary, startsWithHan, type TokensWithinDistance, type VocabularyParts } from './flat-vocabulary';

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

/** Which hits a search answers: those scoring at least a share of the best, the first `limit` of them. */
export interface TextSearchBounds {
  /** The share of the best score a hit must reach (0: every hit). */
  atLeast?: number;
  /** How many hits to rank (every one when absent). */
  limit?: number;
  /** Documents answered wherever they rank (if they reach the share), beside the first `limit`. */
  keep?: ReadonlySet<string>;
  /**
   * Documents (by number: documentsOf) to be told whether they score at least `atLeast` of the best score (a share of
   * their own, below the search's), answered or not (TextRanking.reaching): read with the search's own postings, left
   * out as soon as they cannot reach it, and scored exactly only when the first pass cannot tell, instead of scored
   * alone (scoresOf).
   */
  reaching?: { documents: readonly number[]; atLeast: number };
}

// MiniSearch's defaults: BM25+ parameters and the most edits a fractional fuzziness allows.
const K = 1.2;
const B = 0.7;
const D = 0.5;
const MAX_FUZZY = 6;
const DOCUMENTS_PER_BATCH = 500;
const HAN = /\p{Script=Han}/u;
const ALL_HAN = /^\p{Script=Han}+$/u;

/** The documents a query matches, best first (ties in the order MiniSearch gives them: the order first matched). */
export class TextRanking {
  constructor(
    private readonly index: CompactTextIndex,
    private readonly ranked: Int32Array,
    private readonly rankedScores: Float64Array,
    /** The query terms that found the document at a rank (queryTermsAt). */
    private readonly rankedTerms: (rank: number) => string[],
    /** False when the search was asked for fewer hits than match: more follow the last one. */
    readonly complete: boolean,
    /** The documents of `reaching` (TextSearchBounds) that score at least its share of the best, answered or not, by number. */
    readonly reaching: readonly number[] = [],
  ) {}

  get size(): number {
    return this.ranked.length;
  }

  idAt(rank: number): string {
    return this.index.idOf(this.ranked[rank]!);
  }

  /** The document's number in the index (CompactTextIndex.idOf). */
  documentAt(rank: number): number {
    return this.ranked[rank]!;
  }

  scoreAt(rank: number): number {
    return this.rankedScores[rank]!;
  }

  /** The query terms that found the document, in the query's order (MiniSearch's queryTerms). */
  queryTermsAt(rank: number): string[] {
    return this.rankedTerms(rank);
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

  release(): void {
    this.values = new Int32Array(0);
    this.length = 0;
  }
}

/**
 * Counts in 16 bits when they fit (they always do for registry text), else in 32: a copy of them, or with a
 * length, an array of that length for counts to be written to (in the order of a sort).
 */
function compactCounts(counts: Int32Array, length?: number): Uint16Array | Int32Array {
  let max = 0;
  for (const count of counts) if (count > max) max = count;
  if (length !== undefined) return max <= 0xffff ? new Uint16Array(length) : new Int32Array(length);
  return max <= 0xffff ? Uint16Array.from(counts) : counts.slice();
}

/** The documents a search has written to the scratch, in the order first met (each once), to clear after it. */
class TouchedDocuments {
  readonly documents: Int32Array;
  length = 0;

  constructor(documentCount: number) {
    this.documents = new Int32Array(documentCount);
  }

  push(document: number): void {
    this.documents[this.length++] = document;
  }

  list(): Int32Array {
    return this.documents.subarray(0, this.length);
  }
}

/** The tokens a query term finds and their weights (tokensOf), kept by the index and written again for each new term; grown as needed, once. */
class FoundTokens {
  tokens = new Int32Array(16);
  weights = new Float64Array(16);
  length = 0;

  push(token: number, weight: number): void {
    if (this.length === this.tokens.length) {
      const tokens = new Int32Array(this.length * 2);
      const weights = new Float64Array(this.length * 2);
      tokens.set(this.tokens);
      weights.set(this.weights);
      this.tokens = tokens;
      this.weights = weights;
    }
    this.tokens[this.length] = token;
    this.weights[this.length++] = weight;
  }
}

/**
 * The per-document arrays of a search, kept by the index between searches (a search runs to its end
 * without yielding, so one set serves every search of the index); a search clears what it wrote.
 */
class SearchScratch {
  /** Phase one: the sum of the contributions seen so far and the number of query terms they came from. */
  readonly partial: Float64Array;
  readonly partialTerms: Uint16Array;
  /**
   * 1 while a document is a candidate, 2 once it is ruled out, 3 when it is kept whatever its score, 5 while a
   * document of TextSearchBounds.reaching may reach its share and is not told yet (odd: a candidate).
   */
  readonly state: Uint8Array;
  /** Phase two, in MiniSearch's order: the current term's score, the total, the first list that found it. */
  readonly termScores: Float64Array;
  readonly totalScores: Float64Array;
  readonly firstList: Int32Array;
  /** The last unit or query term that found a document, plus one, to count each once. */
  readonly lastSeen: Int32Array;
  /** Phase one's lower bounds of the documents found, to select the wanted-th of (see kthLowerBound). */
  readonly lowerBounds: Float64Array;
  /** A typed array, not a list: a prefix word read whole meets ten thousand documents at full size, each pushed. */
  readonly touched: TouchedDocuments;
  /** The postings of one list that are a candidate's (a list has each document at most once). */
  readonly candidatePostings: Int32Array;
  /** The documents found, in document order (leftInDocumentOrder), one more place than documents: the candidates, ruled out in place. */
  readonly inOrder: Int32Array;
  /**
   * The documents phase two scored (exactRanking's, each once): only they have a term's score, a total or a first
   * list, and they are the candidates, a few of the thousands a word found by prefix touches.
   */
  scored: readonly number[] = [];

  constructor(documentCount: number) {
    this.partial = new Float64Array(documentCount);
    this.partialTerms = new Uint16Array(documentCount);
    this.state = new Uint8Array(documentCount);
    this.termScores = new Float64Array(documentCount);
    this.totalScores = new Float64Array(documentCount);
    this.firstList = new Int32Array(documentCount);
    this.lastSeen = new Int32Array(documentCount);
    this.lowerBounds = new Float64Array(documentCount);
    this.touched = new TouchedDocuments(documentCount);
    this.candidatePostings = new Int32Array(documentCount);
    this.inOrder = new Int32Array(documentCount + 1);
  }

  /** Clears what a search wrote: phase one's arrays for the documents it touched, phase two's for those it scored. */
  clear(): void {
    const { documents, length } = this.touched;
    for (let i = 0; i < length; i++) {
      const document = documents[i]!;
      this.partial[document] = 0;
      this.partialTerms[document] = 0;
      this.state[document] = 0;
      this.lastSeen[document] = 0;
    }
    this.touched.length = 0;
    for (const document of this.scored) {
      this.termScores[document] = 0;
      this.totalScores[document] = 0;
      this.firstList[document] = 0;
    }
    this.scored = [];
  }
}

/**
 * What a query term finds, as a search reads it: the postings lists (a token in a field) of the tokens it matches
 * (exact, by prefix, by typo, in MiniSearch's order), the empty ones left out. Kept between searches (TermListsMemo):
 * it depends on the term, how it is looked up and the index alone.
 */
interface TermLists {
  /** How many tokens the term matches (empty lists included, each token has one list per field). */
  tokenCount: number;
  /** List i: postings starts[i] to ends[i], its token, its place among the term's lists (token's rank times fields plus field). */
  starts: Int32Array;
  ends: Int32Array;
  tokens: Int32Array;
  places: Int32Array;
  /** The token's weight (1 exact, less by prefix or typo) and the list's inverse document frequency. */
  weights: Float64Array;
  inverseFrequencies: Float64Array;
  /** The term's bound (one occurrence) by the fields' boosts. */
  bounds: Map<string, number>;
  /** How many searches have asked for these lists; the ASKS_BY_DOCUMENT-th makes `byDocument`, when they are many. */
  asked: number;
  byDocument?: PostingsByDocument;
}

/**
 * Every posting of a term's lists, by document and, for a document, in the lists' order (the order its sum is
 * added up in): a term found by prefix has thousands of short lists scattered over the postings, and read list by
 * list its documents are met in no order, each a miss in the per-document arrays; read by document they are met
 * in order, and a few candidates are found by a seek each instead of reading every list again.
 */
interface PostingsByDocument {
  documents: Int32Array;
  postings: Int32Array;
  /** Each posting's frequency, copied beside it (read from the postings, it would be a miss each). */
  frequencies: Uint16Array | Int32Array;
  /** The list (its index in TermLists) each posting is of. */
  lists: Int32Array;
}

/** A term's lists are kept by document too when it has more than this many (a word found by prefix has thousands). */
const LISTS_BY_DOCUMENT = 256;

/**
 * The ask of a term that keeps its lists by document (PostingsByDocument). Making them costs what four to seven reads
 * by document save against reads list by list (a word found by prefix at full size: 0.78–0.84 ms against 0.11–0.22 ms
 * a read), so they are made once a term has been asked three times without them: a word asked once, twice or three
 * times, as a stream of new names asks most first words, pays nothing for them; a word asked again and again pays
 * them once.
 */
export const ASKS_BY_DOCUMENT = 4;

/** The documents of TextSearchBounds.reaching by number, the share of the best they must reach, and those the first pass found reach it. */
interface DocumentsToScore {
  documents: readonly number[];
  share: number;
  reaching: number[];
}

/** A distinct term of a query: its lists, how often the query has it, and its bound. */
interface QueryUnit {
  term: string;
  lists: TermLists;
  /** How many times the query has the term (each occurrence adds its score again, as in MiniSearch). */
  occurrences: number;
  /** The most the term can add to one document's sum, all occurrences together. */
  bound: number;
}

/** What a term's lists count towards the memo's most, in lists (32 bytes): the lists, and their postings by document (12 bytes a posting and its frequency's). */
function memoSize(lists: number, postingsByDocument: number, frequencyBytes: number): number {
  return lists + Math.ceil((postingsByDocument * (12 + frequencyBytes)) / 32);
}

/** The lists a term finds, by the term and how it is looked up; the least recently used go past a number of lists. */
class TermListsMemo {
  private readonly entries = new Map<string, TermLists>();
  /** What each entry counts towards the most kept (memoSize). */
  private readonly sizes = new Map<string, number>();
  private listCount = 0;

  constructor(private readonly maxLists: number) {}

  get(key: string): TermLists | undefined {
    const lists = this.entries.get(key);
    if (lists !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, lists);
    }
    return lists;
  }

  /** Whether an entry of this size (memoSize) can be kept. */
  fits(size: number): boolean {
    return size <= this.maxLists;
  }

  /** Keeps the lists (again, when their postings by document were added: they then count for those too). */
  set(key: string, lists: TermLists): void {
    const { byDocument } = lists;
    const size = memoSize(lists.starts.length, byDocument?.documents.length ?? 0, byDocument?.frequencies.BYTES_PER_ELEMENT ?? 0);
    const known = this.sizes.get(key);
    if (known !== undefined) {
      this.entries.delete(key);
      this.listCount -= known;
      this.sizes.delete(key);
    }
    if (size > this.maxLists) return;
    this.entries.set(key, lists);
    this.sizes.set(key, size);
    this.listCount += size;
    for (const oldest of this.entries.keys()) {
      if (this.listCount <= this.maxLists) break;
      this.entries.delete(oldest);
      this.listCount -= this.sizes.get(oldest)!;
      this.sizes.delete(oldest);
    }
  }
}

/** Lists shorter than this have their inverse document frequency kept by length (8 bytes each, 8 KB an index). */
const SHORT_LIST = 1024;

/** The postings lists the memo of an index keeps at most (32 bytes each: 2 MB). */
const MEMO_LISTS = 65_536;

/** A query as a search reads it: its terms, its distinct terms (units) and which unit each term is, the fields' boosts. */
interface PreparedQuery {
  queryTerms: string[];
  units: QueryUnit[];
  unitOfOccurrence: number[];
  boosts: number[];
}

/** Above any rounding of a sum of a few hundred terms: a document is ruled out only when it is clearly below. */
const ROUNDING_SLACK = 1 - 1e-9;
/** Frequencies below this have their BM25+ factor in a table (CompactTextIndex.factors): nearly every posting is of a token once or twice. */
const TABULATED_FREQUENCIES = 4;

/**
 * An index while its documents are added, a batch at a time: a release's texts are read from the database in
 * batches, and each batch is tokenized and counted here and let go, so the texts of the whole release are never
 * held at once. The vocabulary grows as tokens are met, and each posting's token and field and frequency are
 * kept in the order met; the index (CompactTextIndex) sorts them by token once every document is in.
 */
export class TextIndexBuild {
  readonly ids: string[] = [];
  /** Whether every token that starts with a Han character is Han throughout. */
  hanFirstAllHan = true;
  tokenCount = 0;
  /** Document d's postings are those from documentStarts[d] to documentStarts[d + 1] (its number is not stored per posting). */
  readonly documentStarts = new IntColumn();
  /** A posting's token times the number of fields plus its field, and its frequency. */
  readonly keys = new IntColumn();
  readonly frequencies = new IntColumn();
  /** Distinct tokens of document d in field f at d * fieldCount + f. */
  readonly lengths = new IntColumn();
  readonly averageFieldLengths: Float64Array;
  /** The tokens met so far, by their numbers (the order met); the vocabulary is made of them once every document is in. */
  private readonly numberOfToken = new Map<string, number>();
  private readonly frequencyOfToken = new Map<number, number>();

  constructor(
    readonly fields: readonly string[],
    /** The tokens of many texts at once, as the index's tokenize gives them one by one. */
    private readonly tokenizeAll: (texts: string[]) => string[][],
  ) {
    this.averageFieldLengths = new Float64Array(fields.length);
    this.documentStarts.push(0);
  }

  /**
   * Adds documents, tokenized DOCUMENTS_PER_BATCH at a time; `tokenized` is given each document's tokens by field,
   * for another build made of the same text (a block's clauses), which then needs not tokenize it again.
   */
  add(documents: Iterable<TextDocument>, tokenized?: (id: string, tokensOfFields: string[][]) => void): this {
    let batch: TextDocument[] = [];
    for (const document of documents) {
      batch.push(document);
      if (batch.length === DOCUMENTS_PER_BATCH) {
        this.addBatch(batch, tokenized);
        batch = [];
      }
    }
    if (batch.length > 0) this.addBatch(batch, tokenized);
    return this;
  }

  private addBatch(batch: TextDocument[], tokenized?: (id: string, tokensOfFields: string[][]) => void): void {
    const fieldCount = this.fields.length;
    const tokens = this.tokenizeAll(batch.flatMap((document) => this.fields.map((_, field) => document.fields[field] ?? '')));
    batch.forEach((document, i) => {
      const tokensOfFields = tokens.slice(i * fieldCount, (i + 1) * fieldCount);
      this.addTokenized(document.id, tokensOfFields);
      tokenized?.(document.id, tokensOfFields);
    });
  }

  /** Adds a document already tokenized, a list of tokens per field. */
  addTokenized(id: string, tokensOfFields: string[][]): void {
    const fieldCount = this.fields.length;
    const documentNumber = this.ids.length;
    this.ids.push(id);
    const frequencyOfToken = this.frequencyOfToken;
    for (let field = 0; field < fieldCount; field++) {
      frequencyOfToken.clear();
      // Tokens are numbered in the order MiniSearch first meets them, so the vocabulary orders its prefix and
      // typo look-ups as MiniSearch's tree, built in that order, lists them.
      for (const token of tokensOfFields[field]!) {
        if (!token) continue;
        let tokenNumber = this.numberOfToken.get(token);
        if (tokenNumber === undefined) {
          this.numberOfToken.set(token, (tokenNumber = this.tokenCount++));
          if (this.hanFirstAllHan && startsWithHan(token) && !ALL_HAN.test(token)) this.hanFirstAllHan = false;
        }
        frequencyOfToken.set(tokenNumber, (frequencyOfToken.get(tokenNumber) ?? 0) + 1);
      }
      const length = frequencyOfToken.size;
      this.lengths.push(length);
      this.averageFieldLengths[field] = (this.averageFieldLengths[field]! * documentNumber + length) / (documentNumber + 1);
      for (const [tokenNumber, frequency] of frequencyOfToken) {
        this.keys.push(tokenNumber * fieldCount + field);
        this.frequencies.push(frequency);
      }
    }
    this.documentStarts.push(this.keys.length);
  }

  /** The vocabulary of the tokens met. */
  vocabulary(): FlatVocabulary {
    return FlatVocabulary.of([...this.numberOfToken.keys()]);
  }

  /**
   * Lets go of the postings as counted and of the look-up of tokens once an index is made from the build (which
   * keeps its ids and vocabulary): at full size a hundred MB that would otherwise live as long as the caller's
   * reference to the build, through the rest of a release's load.
   */
  spend(): void {
    for (const column of [this.documentStarts, this.keys, this.frequencies, this.lengths]) column.release();
    this.numberOfToken.clear();
    this.frequencyOfToken.clear();
  }
}

/** What a CompactTextIndex is made of once built (its fields aside): what a stored index keeps of it. */
export interface TextIndexParts {
  ids: string[];
  vocabulary: VocabularyParts;
  hanFirstAllHan: boolean;
  offsets: Int32Array;
  postingDocuments: Int32Array;
  postingFrequencies: Uint16Array | Int32Array;
  fieldLengths: Uint16Array | Int32Array;
  averageFieldLengths: Float64Array;
  longestFields: Int32Array;
  maxScores: Float32Array;
}

/** The parts of an index made from a build, but for the bounds of its lists (worked out from the others). */
type PostingsParts = Omit<TextIndexParts, 'maxScores'>;

function isTextIndexParts(documents: Iterable<TextDocument> | TextIndexBuild | TextIndexParts): documents is TextIndexParts {
  return !(documents instanceof TextIndexBuild) && 'postingDocuments' in documents;
}

/** The postings of a build sorted by token and field, and its other counts; the build is spent. */
function postingsOf(build: TextIndexBuild, fieldCount: number): PostingsParts {
  const { ids, keys, frequencies, lengths, documentStarts, tokenCount } = build;
  const longestFields = new Int32Array(fieldCount);
  for (let i = 0; i < lengths.length; i++) {
    const field = i % fieldCount;
    longestFields[field] = Math.max(longestFields[field]!, lengths.values[i]!);
  }
  const fieldLengths = compactCounts(lengths.values.subarray(0, lengths.length));

  // A counting sort by token and field; stable, so each list stays in document order as MiniSearch's Maps are.
  const postingCount = keys.length;
  const offsets = new Int32Array(tokenCount * fieldCount + 1);
  for (let i = 0; i < postingCount; i++) offsets[keys.values[i]! + 1]!++;
  for (let key = 1; key < offsets.length; key++) offsets[key]! += offsets[key - 1]!;
  const next = offsets.slice(0, -1);
  const postingDocuments = new Int32Array(postingCount);
  const postingFrequencies = compactCounts(frequencies.values.subarray(0, postingCount), postingCount);
  for (let document = 0; document < ids.length; document++) {
    for (let i = documentStarts.values[document]!; i < documentStarts.values[document + 1]!; i++) {
      const at = next[keys.values[i]!]!++;
      postingDocuments[at] = document;
      postingFrequencies[at] = frequencies.values[i]!;
    }
  }
  const vocabulary = build.vocabulary().parts();
  const { hanFirstAllHan, averageFieldLengths } = build;
  build.spend();
  return {
    ids,
    vocabulary,
    hanFirstAllHan,
    offsets,
    postingDocuments,
    postingFrequencies,
    fieldLengths,
    averageFieldLengths,
    longestFields,
  };
}

export class CompactTextIndex {
  private readonly fieldCount: number;
  private readonly ids: string[];
  /**
   * The vocabulary: each token's number, and the tokens a prefix or a typo finds in MiniSearch's order. Its
   * tokens that start with a Han character are apart from the others, so a typo look-up of a Latin word can
   * skip the thousands of Chinese characters (the most of a cold search at 100 000 terms).
   */
  private readonly vocabulary: FlatVocabulary;
  /** Whether every token that starts with a Han character is Han throughout (then no Latin typo reaches one). */
  private readonly hanFirstAllHan: boolean;
  /** Postings of token t in field f: documents and frequencies at offsets[t * fieldCount + f] up to the next offset. */
  private readonly offsets: Int32Array;
  private readonly postingDocuments: Int32Array;
  private readonly postingFrequencies: Uint16Array | Int32Array;
  /** Distinct tokens of document d in field f at d * fieldCount + f (MiniSearch's field length). */
  private readonly fieldLengths: Uint16Array | Int32Array;
  private readonly averageFieldLengths: Float64Array;
  /** The most token t adds in field f to one document (BM25+, unweighted) at t * fieldCount + f, rounded up. */
  private readonly maxScores: Float32Array;
  /** The most distinct tokens a document has in each field. */
  private readonly longestFields: Int32Array;
  /**
   * bm25Factor of each field, field length (up to the field's longest) and frequency below TABULATED_FREQUENCIES,
   * at (factorRows[f] + length) * TABULATED_FREQUENCIES + frequency: the same doubles, without a posting's two divisions.
   */
  private readonly factors: Float64Array;
  private readonly factorRows: Int32Array;
  private scratch: SearchScratch | undefined;
  /** The last query prepared, by its text and options (the same options object, whose functions give the same answers). */
  private lastQuery: { query: string; options: TextSearchOptions; prepared: PreparedQuery } | undefined;
  /** Built on the first search that keeps documents by id. */
  private numberOfId: Map<string, number> | undefined;
  /** The lists of the terms searched for lately: a term's prefix and typo look-ups are the most of a cold search. */
  private readonly memo = new TermListsMemo(MEMO_LISTS);
  /**
   * The inverse document frequency of a list of each length below SHORT_LIST, worked out when first needed: a word
   * found by prefix has thousands of lists of a posting or two, each of which would take a logarithm.
   */
  private readonly inverseFrequencyOfLength = new Float64Array(SHORT_LIST);
  /** 1 for the tokens a term being looked up found by prefix (cleared after), so its typo look-up leaves them out. */
  private foundByPrefix: Uint8Array | undefined;
  /** What the last term looked up found: a word found by prefix has thousands of tokens, and a new one is looked up each search. */
  private readonly foundTokens = new FoundTokens();
  /** What each list of a term can add, grouped by field (termBound). */
  private readonly listMaxima = reusedFloat64Array();
  /** A term's postings while they are ordered by document (byDocument): its documents, postings and lists, and placesByDocument's four. */
  private readonly unordered = [reusedInt32Array(), reusedInt32Array(), reusedInt32Array()] as const;
  private readonly sortWork = [reusedInt32Array(), reusedInt32Array(), reusedInt32Array(), reusedInt32Array()] as const;

  constructor(
    private readonly fields: readonly string[],
    private readonly tokenize: (text: string) => string[],
    /** The documents, an index build they were added to (with the same fields), or the parts of an index as parts() gave them. */
    documents: Iterable<TextDocument> | TextIndexBuild | TextIndexParts,
    /** The tokens of many texts at once, as tokenize gives them one by one (cheaper over a whole release). */
    tokenizeAll: (texts: string[]) => string[][] = (texts) => texts.map(tokenize),
  ) {
    this.fieldCount = fields.length;
    const parts: PostingsParts & { maxScores?: Float32Array } = isTextIndexParts(documents)
      ? documents
      : postingsOf(
          documents instanceof TextIndexBuild ? documents : new TextIndexBuild(fields, tokenizeAll).add(documents),
          this.fieldCount,
        );
    this.ids = parts.ids;
    this.vocabulary = FlatVocabulary.fromParts(parts.vocabulary);
    this.hanFirstAllHan = parts.hanFirstAllHan;
    this.offsets = parts.offsets;
    this.postingDocuments = parts.postingDocuments;
    this.postingFrequencies = parts.postingFrequencies;
    this.fieldLengths = parts.fieldLengths;
    this.averageFieldLengths = parts.averageFieldLengths;
    this.longestFields = parts.longestFields;
    ({ factors: this.factors, rows: this.factorRows } = factorTable(this.fieldLengths, this.averageFieldLengths));
    this.maxScores = parts.maxScores ?? this.listBounds();
  }

  /** What the index is made of, for storing it (search-index-snapshot.ts): a new index made of them answers as this one. */
  parts(): TextIndexParts {
    return {
      ids: this.ids,
      vocabulary: this.vocabulary.parts(),
      hanFirstAllHan: this.hanFirstAllHan,
      offsets: this.offsets,
      postingDocuments: this.postingDocuments,
      postingFrequencies: this.postingFrequencies,
      fieldLengths: this.fieldLengths,
      averageFieldLengths: this.averageFieldLengths,
      longestFields: this.longestFields,
      maxScores: this.maxScores,
    };
  }

  /** The most each token adds in each field to one document (BM25+, unweighted), rounded up. */
  private listBounds(): Float32Array {
    const maxScores = new Float32Array(this.offsets.length - 1);
    for (let key = 0; key < maxScores.length; key++) {
      const field = key % this.fieldCount;
      const start = this.offsets[key]!;
      const end = this.offsets[key + 1]!;
      if (start === end) continue;
      const inverseDocumentFrequency = this.inverseDocumentFrequency(end - start);
      let max = 0;
      for (let posting = start; posting < end; posting++) {
        const score = this.scoreOf(inverseDocumentFrequency, posting, field);
        if (score > max) max = score;
      }
      // A 32-bit float holds the bound to 6e-8 of it; raised by 1e-6 it stays above the score it bounds.
      maxScores[key] = max * (1 + 1e-6);
    }
    return maxScores;
  }

  /** How many documents the index has, numbered from 0 (idOf). */
  get documentCount(): number {
    return this.ids.length;
  }

  idOf(documentNumber: number): string {
    return this.ids[documentNumber]!;
  }

  /**
   * The documents matching any term of the query (OR), scored and ordered as MiniSearch's search; with
   * `atLeast`, only those scoring at least that share of the best; with `limit`, only the first `limit` of them
   * (and those of `keep`, wherever they rank).
   *
   * A bounded search (a share or a limit) scores in two passes. The first (MaxScore) takes the query's terms
   * from the one that can add the most to a document to the one that can add the least, keeping a lower
   * bound of each document's score and a threshold that the answer's hits are known to reach (the limit-th
   * best lower bound, the share of the best one); once the terms left could not lift a document that none
   * of the earlier ones found to the threshold, it looks the remaining terms up only for the documents it
   * has, ruling out those that cannot reach the threshold any more. The second pass scores the documents
   * left exactly as MiniSearch does, term by term in the query's order, so scores, order and ties are its.
   */
  search(query: string, options: TextSearchOptions, { atLeast = 0, limit = Infinity, keep, reaching }: TextSearchBounds = {}): TextRanking {
    const { queryTerms, units, unitOfOccurrence, boosts } = this.queryOf(query, options);
    if (this.ids.length === 0 || units.length === 0) return new TextRanking(this, new Int32Array(0), new Float64Array(0), () => [], true);
    for (const unit of units) unit.bound = this.boundOf(unit, boosts);

    const scratch = (this.scratch ??= new SearchScratch(this.ids.length));
    const share = Math.min(Math.max(atLeast, 0), 1);
    const first = Math.max(0, Math.floor(limit));
    const kept = this.documentsOf(keep);
    // One more than asked for beside the kept ones, to know whether more follow.
    const wanted = first + 1 + kept.length;
    const toScore: DocumentsToScore = {
      documents: reaching?.documents ?? [],
      share: Math.min(Math.max(reaching?.atLeast ?? 0, 0), 1),
      reaching: [],
    };
    const { touched } = scratch;
    try {
      const candidates =
        share > 0 || wanted < Infinity ? this.candidates(units, boosts, share, wanted, kept, toScore, scratch, touched) : null;
      return this.exactRanking(queryTerms, units, unitOfOccurrence, boosts, share, first, kept, candidates, scratch, touched, toScore);
    } finally {
      scratch.clear();
    }
  }

  /**
   * The scores search would give these documents (those the query matches), found by reading the query's
   * postings for them alone: for a few documents of a large index, much less than a search.
   */
  scoresOf(query: string, options: TextSearchOptions, ids: ReadonlySet<string>): Map<string, number> {
    const { queryTerms, units, unitOfOccurrence, boosts } = this.queryOf(query, options);
    const documents = this.documentsOf(ids).sort((a, b) => a - b);
    const scores = new Map<string, number>();
    if (documents.length === 0 || units.length === 0) return scores;
    const scratch = (this.scratch ??= new SearchScratch(this.ids.length));
    const { touched } = scratch;
    for (const document of documents) {
      scratch.state[document] = 3;
      touched.push(document);
    }
    try {
      const ranking = this.exactRanking(queryTerms, units, unitOfOccurrence, boosts, 0, 0, documents, documents, scratch, touched);
      for (let rank = 0; rank < ranking.size; rank++) scores.set(ranking.idAt(rank), ranking.scoreAt(rank));
      return scores;
    } finally {
      scratch.clear();
    }
  }

  /**
   * A query's terms, its distinct terms with the tokens each finds, and the fields' boosts; the last query's
   * kept, as a ranking read further and an alignment search ask the same query again with the same options.
   */
  private queryOf(query: string, options: TextSearchOptions): PreparedQuery {
    const last = this.lastQuery;
    if (last !== undefined && last.query === query && last.options === options) return last.prepared;
    const prepared = this.prepare(query, options);
    this.lastQuery = { query, options, prepared };
    return prepared;
  }

  private prepare(query: string, options: TextSearchOptions): PreparedQuery {
    const queryTerms = this.tokenize(query).filter((term) => term);
    const boosts = this.fields.map((field) => (Object.hasOwn(options.boost, field) ? options.boost[field] : 0) || 1);
    const units: QueryUnit[] = [];
    const unitOfOccurrence = queryTerms.map((term) => {
      const known = units.findIndex((unit) => unit.term === term);
      if (known >= 0) {
        units[known]!.occurrences++;
        return known;
      }
      return units.push({ term, lists: this.termLists(term, options), occurrences: 1, bound: 0 }) - 1;
    });
    return { queryTerms, units, unitOfOccurrence, boosts };
  }

  /** The lists of the tokens a query term finds, remembered by the term and how it is looked up. */
  private termLists(term: string, options: TextSearchOptions): TermLists {
    const byPrefix = options.prefix(term);
    const fuzziness = options.fuzzy(term);
    const key = `${term}\u0000${byPrefix}\u0000${fuzziness}\u0000${options.weights.prefix}\u0000${options.weights.fuzzy}`;
    const known = this.memo.get(key);
    if (known !== undefined) {
      if (++known.asked === ASKS_BY_DOCUMENT && known.starts.length > LISTS_BY_DOCUMENT && this.byDocument(known))
        this.memo.set(key, known);
      return known;
    }
    const termLists = this.listsFound(term, byPrefix, fuzziness, options.weights);
    this.memo.set(key, termLists);
    return termLists;
  }

  /**
   * The lists of the tokens a term finds, looked up (termLists when the memo has not got them). A method of its own:
   * in termLists, optimized by V8 on the asks the memo answers, this part was left for the interpreter each time.
   */
  private listsFound(term: string, byPrefix: boolean, fuzziness: boolean | number, lookUpWeights: TextSearchOptions['weights']): TermLists {
    const { tokens, weights, length: tokenCount } = this.tokensOf(term, byPrefix, fuzziness, lookUpWeights);
    const { fieldCount, offsets } = this;
    let count = 0;
    for (let j = 0; j < tokenCount; j++) {
      const tokenNumber = tokens[j]!;
      for (let list = tokenNumber * fieldCount; list < (tokenNumber + 1) * fieldCount; list++)
        if (offsets[list] !== offsets[list + 1]) count++;
    }
    const termLists: TermLists = {
      tokenCount,
      starts: new Int32Array(count),
      ends: new Int32Array(count),
      tokens: new Int32Array(count),
      places: new Int32Array(count),
      weights: new Float64Array(count),
      inverseFrequencies: new Float64Array(count),
      bounds: new Map(),
      asked: 1,
    };
    let i = 0;
    for (let j = 0; j < tokenCount; j++) {
      const tokenNumber = tokens[j]!;
      for (let field = 0; field < fieldCount; field++) {
        const start = offsets[tokenNumber * fieldCount + field]!;
        const end = offsets[tokenNumber * fieldCount + field + 1]!;
        if (start === end) continue;
        termLists.starts[i] = start;
        termLists.ends[i] = end;
        termLists.tokens[i] = tokenNumber;
        termLists.places[i] = j * fieldCount + field;
        termLists.weights[i] = weights[j]!;
        termLists.inverseFrequencies[i++] = this.inverseDocumentFrequency(end - start);
      }
    }
    return termLists;
  }

  /**
   * Adds the lists' postings by document (PostingsByDocument), unless the memo could not keep
   * them (it would then drop the lists themselves, and every other ask would make both again); whether it did.
   */
  private byDocument(lists: TermLists): boolean {
    // Its loops are functions of their own with nothing after them (see readWhole: code V8 makes for a loop is left at its end when code follows).
    const count = postingCountOf(lists);
    const size = memoSize(lists.starts.length, count, this.postingFrequencies.BYTES_PER_ELEMENT);
    if (!this.memo.fits(size)) return false;
    // Each posting's document, in the lists read one after the other, then ordered by document (stably, so in the lists' order).
    const [documents, postings, listOf] = this.unordered.map((array) => array.take(count)) as [Int32Array, Int32Array, Int32Array];
    postingsOneListAfterAnother(lists, this.postingDocuments, documents, postings, listOf);
    const ordered = placesByDocument(
      documents,
      (length) => this.sortWork.map((array) => array.take(length)) as [Int32Array, Int32Array, Int32Array, Int32Array],
    );
    const byDocument: PostingsByDocument = {
      documents: ordered.documents.slice(),
      postings: new Int32Array(count),
      frequencies: this.postingFrequencies instanceof Uint16Array ? new Uint16Array(count) : new Int32Array(count),
      lists: new Int32Array(count),
    };
    postingsInPlaceOrder(ordered.places, postings, listOf, this.postingFrequencies, byDocument);
    lists.byDocument = byDocument;
    return true;
  }

  /** The tokens a query term finds and their weights, in MiniSearch's order: exact, by prefix, by typo (in foundTokens, until the next term). */
  private tokensOf(term: string, byPrefix: boolean, fuzziness: boolean | number, weights: TextSearchOptions['weights']): FoundTokens {
    const found = this.foundTokens;
    found.length = 0;
    const exact = this.vocabulary.get(term);
    if (exact !== undefined) found.push(exact, 1);
    let fuzzyMatches: TokensWithinDistance | undefined;
    if (fuzziness) {
      const fraction = fuzziness === true ? 0.2 : fuzziness;
      const maxDistance = fraction < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fraction)) : fraction;
      // A word without Han characters is as many edits from an all-Han token as the longer of the two is long.
      const latinTypo = this.hanFirstAllHan && !HAN.test(term) && maxDistance < term.length;
      if (maxDistance) fuzzyMatches = this.vocabulary.withinDistance(term, maxDistance, latinTypo);
    }
    const prefixedFrom = found.length;
    if (byPrefix) {
      this.vocabulary.eachWithPrefix(term, (tokenNumber, length) => {
        const distance = length - term.length;
        if (!distance) return;
        found.push(tokenNumber, (weights.prefix * length) / (length + 0.3 * distance));
      });
    }
    if (fuzzyMatches) {
      const prefixed = (this.foundByPrefix ??= new Uint8Array(this.vocabulary.size));
      const prefixedTo = found.length;
      for (let i = prefixedFrom; i < prefixedTo; i++) prefixed[found.tokens[i]!] = 1;
      fuzzyMatches.tokens.forEach((tokenNumber, i) => {
        const distance = fuzzyMatches.distances[i]!;
        if (!distance || prefixed[tokenNumber] === 1) return;
        const length = fuzzyMatches.lengths[i]!;
        found.push(tokenNumber, (weights.fuzzy * length) / (length + distance));
      });
      for (let i = prefixedFrom; i < prefixedTo; i++) prefixed[found.tokens[i]!] = 0;
    }
    return found;
  }

  /**
   * The most a query term can add to one document's sum, every occurrence in the query together: in each
   * field, the largest of what its tokens can add, as many of them as the longest field of that kind has
   * distinct tokens (a term with a short prefix finds thousands of tokens, a document has a few of them).
   */
  private boundOf(unit: QueryUnit, boosts: number[]): number {
    const { lists } = unit;
    const boostsKey = boosts.join(' ');
    let bound = lists.bounds.get(boostsKey);
    if (bound === undefined) {
      bound = this.termBound(lists, boosts);
      lists.bounds.set(boostsKey, bound);
    }
    return bound * unit.occurrences * (1 + 1e-9);
  }

  /** A term's bound for one occurrence (see boundOf). */
  private termBound(lists: TermLists, boosts: number[]): number {
    const { fieldCount } = this;
    const { places, weights, tokens } = lists;
    // What each list can add, grouped by field in one pass (each field's in the term's token order).
    const fieldStarts = new Int32Array(fieldCount + 1);
    for (let i = 0; i < places.length; i++) fieldStarts[(places[i]! % fieldCount) + 1]!++;
    for (let field = 0; field < fieldCount; field++) fieldStarts[field + 1]! += fieldStarts[field]!;
    const next = fieldStarts.slice(0, fieldCount);
    const most = this.listMaxima.take(places.length);
    for (let i = 0; i < places.length; i++) {
      const field = places[i]! % fieldCount;
      most[next[field]!++] = weights[i]! * this.maxScores[tokens[i]! * fieldCount + field]!;
    }
    let bound = 0;
    for (let field = 0; field < fieldCount; field++) {
      const found = most.subarray(fieldStarts[field]!, fieldStarts[field + 1]!);
      const count = found.length;
      const longest = this.longestFields[field]!;
      // The largest `longest` of them: those at or above the longest-th largest, ties with it counted up to `longest`.
      const least = count > longest ? kthLargest(found, longest) : 0;
      let taken = 0;
      let sum = 0;
      for (const score of found) {
        if (score > least) {
          sum += score;
          taken++;
        }
      }
      if (count > longest) sum += least * (longest - taken);
      bound += boosts[field]! * sum;
    }
    return bound;
  }

  /**
   * The first pass of a bounded search: every document that may be in the answer (and few more), in
   * document order. A document's lower bound is the sum of what it has been found with times the number of
   * query terms that found it (MiniSearch multiplies the sum by that number); its upper bound adds every
   * term not yet looked up, to both.
   */
  private candidates(
    units: QueryUnit[],
    boosts: number[],
    share: number,
    wanted: number,
    kept: number[],
    toScore: DocumentsToScore,
    scratch: SearchScratch,
    touched: TouchedDocuments,
  ) {
    const { partial, partialTerms, state, lastSeen } = scratch;
    const { fieldCount, postingDocuments } = this;
    let threshold = 0;
    // A kept document is a candidate from the start and never ruled out; a document to score is one until it
    // can reach neither the threshold nor its own share of the best lower bound (at most that share of the best score).
    for (const document of kept) {
      state[document] = 3;
      touched.push(document);
    }
    for (const document of toScore.documents) {
      if (state[document] !== 0) continue;
      state[document] = 5;
      touched.push(document);
    }
    let bestLowerBound = 0;
    // Leaves in place, in document order, the candidates whose upper bound (with `rest` more, from `restTerms` terms) reaches the threshold.
    const ruleOut = (documents: Int32Array, rest: number, restTerms: number): Int32Array => {
      const least = threshold * ROUNDING_SLACK;
      const leastToScore = bestLowerBound * toScore.share * ROUNDING_SLACK;
      let left = 0;
      for (let i = 0; i < documents.length; i++) {
        const document = documents[i]!;
        const most = (partial[document]! + rest) * (partialTerms[document]! + restTerms);
        if (state[document] === 3 || most >= (state[document] === 5 ? Math.min(least, leastToScore) : least)) documents[left++] = document;
        else state[document] = 2;
      }
      return documents.subarray(0, left);
    };
    const order = units.map((_, i) => i).sort((a, b) => units[b]!.bound - units[a]!.bound);
    let restBound = units.reduce((sum, unit) => sum + unit.bound, 0);
    // A term whose tokens have no postings finds no document: it adds neither to a sum nor to the terms found.
    let restTerms = units.filter((unit) => unit.lists.starts.length > 0).length;
    /** The last wanted-th best lower bound worked out (lower bounds only rise, so most documents fall below it). */
    let kth = 0;
    let candidates: Int32Array | null = null;
    const above = new DocumentsAboveReach(partial, partialTerms, scratch.lowerBounds, ROUNDING_SLACK);
    for (let step = 0; step < order.length; step++) {
      const unit = units[order[step]!]!;
      const stamp = step + 1;
      // A document no earlier term found has at most every remaining term, each at its most.
      if (candidates === null && restBound * restTerms < threshold * ROUNDING_SLACK)
        candidates = this.leftInDocumentOrder(touched, state, scratch.inOrder, (documents) => ruleOut(documents, restBound, restTerms));
      else if (candidates !== null) candidates = ruleOut(candidates, restBound, restTerms);
      const found = (document: number, score: number) => {
        partial[document]! += score;
        if (lastSeen[document] !== stamp) {
          lastSeen[document] = stamp;
          partialTerms[document]!++;
        }
        const lowerBound = partial[document]! * partialTerms[document]!;
        if (lowerBound > bestLowerBound) bestLowerBound = lowerBound;
      };
      const { lists } = unit;
      const { byDocument } = lists;
      // A term kept by document (PostingsByDocument) is read that way, whole or for a few candidates; else list by list.
      const readByDocument = byDocument !== undefined && (candidates === null || candidates.length * 4 < byDocument.documents.length);
      if (readByDocument && candidates === null) {
        bestLowerBound = this.readByDocument(unit, byDocument, boosts, stamp, scratch, touched, bestLowerBound);
      } else if (readByDocument) {
        this.eachCandidateByDocument(candidates!, byDocument, (document, posting, i) => {
          const field = lists.places[i]! % fieldCount;
          found(
            document,
            lists.weights[i]! * boosts[field]! * unit.occurrences * this.scoreOf(lists.inverseFrequencies[i]!, posting, field),
          );
        });
      }
      const listsToRead = readByDocument ? 0 : lists.starts.length;
      if (candidates === null && listsToRead > 0) bestLowerBound = this.readWhole(unit, boosts, stamp, scratch, bestLowerBound);
      else {
        for (let i = 0; i < listsToRead; i++) {
          const field = lists.places[i]! % fieldCount;
          const inverseDocumentFrequency = lists.inverseFrequencies[i]!;
          const fieldWeight = lists.weights[i]! * boosts[field]! * unit.occurrences;
          const { candidatePostings } = scratch;
          const count = this.candidatePostingsOf(candidates!, state, lists.starts[i]!, lists.ends[i]!, candidatePostings);
          for (let k = 0; k < count; k++) {
            const posting = candidatePostings[k]!;
            found(postingDocuments[posting]!, fieldWeight * this.scoreOf(inverseDocumentFrequency, posting, field));
          }
        }
      }
      restBound -= unit.bound;
      if (lists.starts.length > 0) restTerms--;
      if (candidates === null) {
        if (readByDocument) above.raised(byDocument.documents, 0, byDocument.documents.length);
        for (let i = 0; i < listsToRead; i++) above.raised(postingDocuments, lists.starts[i]!, lists.ends[i]!);
      }
      // The threshold is at most the best lower bound: while the terms left could lift a document none found
      // above that, it would neither end the first pass nor rule anything out, and is not worked out.
      const needed = candidates !== null || restTerms === 0 || restBound * restTerms < bestLowerBound * ROUNDING_SLACK;
      threshold = 0;
      if (needed) {
        // The best lower bound of the documents left is the best one met: a document ruled out was below it.
        const documents = candidates ?? touched.list();
        const byShare = bestLowerBound * share;
        threshold = byShare;
        // Before the last term, while every document found is still a candidate, the threshold decides only whether
        // the next term is read for them alone: when fewer than `wanted` of them are above what the terms left could
        // give a document none found (nor the share of the best), the wanted-th is not, and need not be selected.
        const reach = restBound * restTerms;
        if (wanted <= documents.length) {
          const decided =
            candidates === null &&
            step < order.length - 1 &&
            byShare * ROUNDING_SLACK <= reach &&
            above.fewerThan(wanted, documents, reach);
          if (!decided) {
            kth = this.kthLowerBound(documents, scratch, wanted, kth);
            threshold = Math.max(byShare, kth);
          }
        }
      }
    }
    const left =
      candidates === null
        ? this.leftInDocumentOrder(touched, state, scratch.inOrder, (documents) => ruleOut(documents, 0, 0))
        : ruleOut(candidates, 0, 0);
    return toScore.documents.length === 0 ? left : this.toldApart(left, share, toScore, scratch);
  }

  /**
   * The candidates left after the first pass, less the documents to score (state 5) that it tells apart. A
   * candidate's lower bound is then its score but for the order of the additions (every term was read for it), and
   * the best of them the best score: one clearly below the search's share of the best is not answered, and if it is
   * also clearly above or below its own share, it needs no exact score (it is added to `toScore.reaching` when above).
   */
  private toldApart(candidates: Int32Array, share: number, toScore: DocumentsToScore, scratch: SearchScratch): Int32Array {
    const { partial, partialTerms, state } = scratch;
    let best = 0;
    for (let i = 0; i < candidates.length; i++) best = Math.max(best, partial[candidates[i]!]! * partialTerms[candidates[i]!]!);
    // Each bound is widened by the rounding slack, far more than the order of a few hundred additions can move a sum.
    const answered = best * share * ROUNDING_SLACK;
    const reaches = (best * toScore.share) / ROUNDING_SLACK;
    const fallsShort = best * toScore.share * ROUNDING_SLACK;
    let left = 0;
    for (let i = 0; i < candidates.length; i++) {
      const document = candidates[i]!;
      const score = partial[document]! * partialTerms[document]!;
      if (state[document] === 5 && score / ROUNDING_SLACK < answered) {
        if (score > 0 && score * ROUNDING_SLACK >= reaches) {
          toScore.reaching.push(document);
          state[document] = 2;
          continue;
        }
        if (score / ROUNDING_SLACK < fallsShort) {
          state[document] = 2;
          continue;
        }
      }
      candidates[left++] = document;
    }
    return candidates.subarray(0, left);
  }

  /**
   * The documents found so far (none ruled out yet: each is a candidate or kept) that `ruleOut` leaves, in document
   * order. They are ruled out in the order found (a word found by prefix touches thousands, and leaves a few), then
   * sorted when they are few, else read off the states (a pass over one byte a document costs less than sorting tens
   * of thousands).
   */
  private leftInDocumentOrder(
    touched: TouchedDocuments,
    state: Uint8Array,
    documents: Int32Array,
    ruleOut: (documents: Int32Array) => Int32Array,
  ): Int32Array {
    documents.set(touched.list());
    const left = ruleOut(documents.subarray(0, touched.length));
    if (left.length * 32 < state.length) return left.sort();
    // Each document is written and kept only when its state is odd, a candidate's (without a branch to mispredict), hence the one more place.
    let count = 0;
    for (let document = 0; document < state.length; document++) {
      documents[count] = document;
      count += state[document]! & 1;
    }
    return documents.subarray(0, count);
  }

  /**
   * The wanted-th largest lower bound of the documents (wanted ≤ their number), selected among those at or above
   * `floor` when at least `wanted` are (the k-th largest is then theirs), else among all.
   */
  private kthLowerBound(documents: ArrayLike<number>, scratch: SearchScratch, wanted: number, floor: number): number {
    const { partial, partialTerms, lowerBounds } = scratch;
    let count = 0;
    // Each lower bound is written and kept only when at or above the floor (without a branch to mispredict).
    for (let i = 0; i < documents.length; i++) {
      const document = documents[i]!;
      const lowerBound = partial[document]! * partialTerms[document]!;
      lowerBounds[count] = lowerBound;
      count += lowerBound >= floor ? 1 : 0;
    }
    if (count < wanted) {
      for (count = 0; count < documents.length; count++)
        lowerBounds[count] = partial[documents[count]!]! * partialTerms[documents[count]!]!;
    }
    return kthLargest(lowerBounds.subarray(0, count), wanted);
  }

  /**
   * The second pass: the documents (all that match, or the candidates) scored as MiniSearch scores them:
   * each term's tokens and fields summed in its order, the terms' sums added in the query's order, times the
   * number of distinct terms found; ordered by score, ties in the order first matched.
   */
  private exactRanking(
    queryTerms: string[],
    units: QueryUnit[],
    unitOfOccurrence: number[],
    boosts: number[],
    share: number,
    first: number,
    kept: number[],
    candidates: ArrayLike<number> | null,
    scratch: SearchScratch,
    touched: TouchedDocuments,
    toScore?: DocumentsToScore,
  ): TextRanking {
    const { termScores, totalScores, firstList, lastSeen, state } = scratch;
    // The number of distinct query terms that found each document (the first pass's counts are done with).
    const termCounts = scratch.partialTerms;
    if (candidates !== null) for (let i = 0; i < candidates.length; i++) termCounts[candidates[i]!] = 0;
    const matched: number[] = [];
    scratch.scored = matched;
    /** The documents each distinct term found (every occurrence of a term finds the same ones). */
    const matchedByUnit: number[][] = units.map(() => []);
    let list = 0;
    let listsBefore = 0;
    queryTerms.forEach((_, occurrence) => {
      const unitNumber = unitOfOccurrence[occurrence]!;
      const unit = units[unitNumber]!;
      const stamp = units.length + 1 + occurrence;
      const termMatched: number[] = [];
      const found = (document: number, score: number) => {
        termScores[document]! += score;
        if (lastSeen[document] !== stamp) {
          lastSeen[document] = stamp;
          termMatched.push(document);
        }
        if (firstList[document] === 0) {
          firstList[document] = list;
          matched.push(document);
          if (candidates === null) touched.push(document);
        }
      };
      const { lists } = unit;
      const { byDocument } = lists;
      const readByDocument = byDocument !== undefined && candidates !== null && candidates.length * 4 < byDocument.documents.length;
      if (readByDocument) {
        this.eachCandidateByDocument(candidates!, byDocument, (document, posting, i) => {
          list = listsBefore + lists.places[i]! + 1;
          const field = lists.places[i]! % this.fieldCount;
          found(document, lists.weights[i]! * boosts[field]! * this.scoreOf(lists.inverseFrequencies[i]!, posting, field));
        });
      }
      for (let i = 0; i < (readByDocument ? 0 : lists.starts.length); i++) {
        // Numbered as every list of the term's tokens, the empty ones too, in MiniSearch's order.
        list = listsBefore + lists.places[i]! + 1;
        const start = lists.starts[i]!;
        const end = lists.ends[i]!;
        const field = lists.places[i]! % this.fieldCount;
        const inverseDocumentFrequency = lists.inverseFrequencies[i]!;
        const fieldWeight = lists.weights[i]! * boosts[field]!;
        if (candidates === null) {
          for (let posting = start; posting < end; posting++) {
            found(this.postingDocuments[posting]!, fieldWeight * this.scoreOf(inverseDocumentFrequency, posting, field));
          }
        } else {
          const { candidatePostings } = scratch;
          const count = this.candidatePostingsOf(candidates, state, start, end, candidatePostings);
          for (let k = 0; k < count; k++) {
            const posting = candidatePostings[k]!;
            found(this.postingDocuments[posting]!, fieldWeight * this.scoreOf(inverseDocumentFrequency, posting, field));
          }
        }
      }
      listsBefore += lists.tokenCount * this.fieldCount;
      // This term's scores are summed first and then added to the document's, as MiniSearch combines them.
      const firstOccurrence = unitOfOccurrence.indexOf(unitNumber) === occurrence;
      for (const document of termMatched) {
        totalScores[document]! += termScores[document]!;
        termScores[document] = 0;
        if (firstOccurrence) termCounts[document]!++;
      }
      if (firstOccurrence) matchedByUnit[unitNumber] = termMatched;
    });

    const finalScores = new Float64Array(matched.length);
    let best = 0;
    matched.forEach((document, position) => {
      const score = totalScores[document]! * (termCounts[document]! || 1);
      finalScores[position] = score;
      if (score > best) best = score;
    });
    const floor = best * share;
    // The documents to score that the first pass told apart, and those it did not, from their scores.
    // Each once: those told apart were left out of the candidates, so none of them is matched.
    const reaching: number[] = [];
    if (toScore !== undefined && toScore.documents.length > 0) {
      reaching.push(...toScore.reaching);
      const toScoreSet = new Set(toScore.documents);
      const least = best * toScore.share;
      matched.forEach((document, position) => {
        if (finalScores[position]! >= least && toScoreSet.has(document)) reaching.push(document);
      });
    }
    const aboveFloor: number[] = [];
    for (let position = 0; position < matched.length; position++) if (finalScores[position]! >= floor) aboveFloor.push(position);
    const keptSet = new Set(kept);
    // Only the first `first` (ties with the last of them too) and the kept ones are answered: the others need no order.
    // Every document that ranks before one scoring at least the first-th best score also does, so the ranks agree.
    let ordered = aboveFloor;
    if (first < aboveFloor.length) {
      const least =
        first > 0
          ? kthLargest(
              Float64Array.from(aboveFloor, (position) => finalScores[position]!),
              first,
            )
          : Infinity;
      ordered = aboveFloor.filter((position) => finalScores[position]! >= least || keptSet.has(matched[position]!));
    }
    ordered.sort(
      (a, b) => finalScores[b]! - finalScores[a]! || firstList[matched[a]!]! - firstList[matched[b]!]! || matched[a]! - matched[b]!,
    );
    const answered = ordered.filter((position, rank) => rank < first || keptSet.has(matched[position]!));
    const ranked = new Int32Array(answered.length);
    const rankedScores = new Float64Array(answered.length);
    answered.forEach((position, rank) => {
      ranked[rank] = matched[position]!;
      rankedScores[rank] = finalScores[position]!;
    });
    const rankedTerms = rankedTermsOf(
      ranked,
      matchedByUnit,
      units.map((unit) => unit.term),
      firstList,
    );
    return new TextRanking(this, ranked, rankedScores, rankedTerms, answered.length === aboveFloor.length, reaching);
  }

  /** The numbers of the documents with these ids (ids the index does not have are left out). */
  documentsOf(ids: Iterable<string> | undefined): number[] {
    if (ids === undefined) return [];
    const documents: number[] = [];
    for (const id of ids) {
      const document = this.documentOf(id);
      if (document !== undefined) documents.push(document);
    }
    return documents;
  }

  /** The number of the document with this id (idOf's inverse), if the index has it. */
  documentOf(id: string): number | undefined {
    this.numberOfId ??= new Map(this.ids.map((id, number) => [id, number]));
    return this.numberOfId.get(id);
  }

  private inverseDocumentFrequency(matching: number): number {
    if (matching >= this.inverseFrequencyOfLength.length) return Math.log(1 + (this.ids.length - matching + 0.5) / (matching + 0.5));
    // Never 0 once worked out (a list is at most every document, whose log is still above 0).
    return (this.inverseFrequencyOfLength[matching] ||= Math.log(1 + (this.ids.length - matching + 0.5) / (matching + 0.5)));
  }

  /** A posting's BM25+ score in its field (MiniSearch's, before the term's weight and the field's boost). */
  private scoreOf(inverseDocumentFrequency: number, posting: number, field: number): number {
    const frequency = this.postingFrequencies[posting]!;
    const length = this.fieldLengths[this.postingDocuments[posting]! * this.fieldCount + field]!;
    return inverseDocumentFrequency * this.factorOf(frequency, length, field);
  }

  /** bm25Factor, from the table when the frequency is in it. */
  private factorOf(frequency: number, length: number, field: number): number {
    if (frequency < TABULATED_FREQUENCIES) return this.factors[(this.factorRows[field]! + length) * TABULATED_FREQUENCIES + frequency]!;
    return bm25Factor(frequency, length, this.averageFieldLengths[field]!);
  }

  /**
   * Every posting of a term's lists read in the first pass, list by list; returns the best lower bound met. Each list
   * by a method of its own (readList): V8 first runs a long loop by on-stack replacement, and code made for an inner
   * loop is left, at a cost, each time that loop ends if code follows it. As a loop within a loop inside `candidates`
   * (called once a search), a word of 4 000 lists left it 4 000 times a search, 5 to 50 ms, for the first few dozen
   * searches of a process (until the whole method was optimized).
   */
  private readWhole(unit: QueryUnit, boosts: number[], stamp: number, scratch: SearchScratch, bestLowerBound: number): number {
    const { lists } = unit;
    let best = bestLowerBound;
    for (let i = 0; i < lists.starts.length; i++) {
      const field = lists.places[i]! % this.fieldCount;
      const fieldWeight = lists.weights[i]! * boosts[field]! * unit.occurrences;
      best = this.readList(lists.starts[i]!, lists.ends[i]!, field, fieldWeight, lists.inverseFrequencies[i]!, stamp, scratch, best);
    }
    return best;
  }

  /** The postings [start, end) of a list read whole (readWhole), in a field, at a weight; returns the best lower bound met. */
  private readList(
    start: number,
    end: number,
    field: number,
    fieldWeight: number,
    inverseDocumentFrequency: number,
    stamp: number,
    scratch: SearchScratch,
    bestLowerBound: number,
  ): number {
    const { partial, partialTerms, state, lastSeen, touched } = scratch;
    const { fieldCount, postingDocuments, postingFrequencies, fieldLengths, factors } = this;
    const averageLength = this.averageFieldLengths[field]!;
    const firstFactor = this.factorRows[field]! * TABULATED_FREQUENCIES;
    let best = bestLowerBound;
    for (let posting = start; posting < end; posting++) {
      const document = postingDocuments[posting]!;
      if (state[document] === 0) {
        state[document] = 1;
        touched.push(document);
      }
      const frequency = postingFrequencies[posting]!;
      const length = fieldLengths[document * fieldCount + field]!;
      const factor =
        frequency < TABULATED_FREQUENCIES
          ? factors[firstFactor + length * TABULATED_FREQUENCIES + frequency]!
          : bm25Factor(frequency, length, averageLength);
      partial[document]! += fieldWeight * (inverseDocumentFrequency * factor);
      if (lastSeen[document] !== stamp) {
        lastSeen[document] = stamp;
        partialTerms[document]!++;
      }
      const lowerBound = partial[document]! * partialTerms[document]!;
      if (lowerBound > best) best = lowerBound;
    }
    return best;
  }

  /**
   * Every posting of a term's lists read in the first pass, by document (PostingsByDocument): the same sums as
   * list by list, as a document's postings are added in the lists' order either way. Returns the best lower bound met.
   */
  private readByDocument(
    unit: QueryUnit,
    byDocument: PostingsByDocument,
    boosts: number[],
    stamp: number,
    scratch: SearchScratch,
    touched: TouchedDocuments,
    bestLowerBound: number,
  ): number {
    const { partial, partialTerms, state, lastSeen } = scratch;
    const { places, inverseFrequencies, weights } = unit.lists;
    const { documents, frequencies, lists } = byDocument;
    let best = bestLowerBound;
    for (let j = 0; j < documents.length; j++) {
      const document = documents[j]!;
      const i = lists[j]!;
      const field = places[i]! % this.fieldCount;
      if (state[document] === 0) {
        state[document] = 1;
        touched.push(document);
      }
      const length = this.fieldLengths[document * this.fieldCount + field]!;
      const score = inverseFrequencies[i]! * this.factorOf(frequencies[j]!, length, field);
      partial[document]! += weights[i]! * boosts[field]! * unit.occurrences * score;
      if (lastSeen[document] !== stamp) {
        lastSeen[document] = stamp;
        partialTerms[document]!++;
      }
      best = Math.max(best, partial[document]! * partialTerms[document]!);
    }
    return best;
  }

  /** Each posting of a candidate (in document order) in a term's lists, by document, found by a seek per candidate: its posting and list. */
  private eachCandidateByDocument(
    candidates: ArrayLike<number>,
    byDocument: PostingsByDocument,
    visit: (document: number, posting: number, list: number) => void,
  ): void {
    const { documents, postings, lists } = byDocument;
    let at = 0;
    for (let i = 0; i < candidates.length; i++) {
      const document = candidates[i]!;
      at = firstAtOrAfter(documents, document, at, documents.length);
      for (; at < documents.length && documents[at] === document; at++) visit(document, postings[at]!, lists[at]!);
    }
  }

  /**
   * The postings in [start, end) of a candidate (in document order), written to `into` (as many as returned): a
   * short list is read through, checking each document, a long one is searched for each candidate (the
   * candidates are in document order). Written, not visited, so that a term of thousands of lists makes no
   * function per list.
   */
  private candidatePostingsOf(candidates: ArrayLike<number>, state: Uint8Array, start: number, end: number, into: Int32Array): number {
    let count = 0;
    if (end - start <= candidates.length * 4) {
      for (let posting = start; posting < end; posting++) {
        const document = this.postingDocuments[posting]!;
        if ((state[document]! & 1) === 1) into[count++] = posting;
      }
      return count;
    }
    let posting = start;
    for (let i = 0; i < candidates.length; i++) {
      const document = candidates[i]!;
      posting = this.seek(document, posting, end);
      if (posting === end) return count;
      if (this.postingDocuments[posting] === document) into[count++] = posting;
    }
    return count;
  }

  /** The first posting at or after `from` (and before `end`) of a document at or after `document`. */
  private seek(document: number, from: number, end: number): number {
    return firstAtOrAfter(this.postingDocuments, document, from, end);
  }
}

/**
 * The query terms that found each ranked document, read by rank: a document's terms in the order they first found it
 * (units are numbered in the order the query first has them). Kept as unit numbers, a rank's side by side, and made
 * words only when read: an alignment search's sentence ranks a thousand clauses at full size and reads the terms of a
 * few. `rankOf` is a per-document array the search no longer needs (cleared after it), written here with -(rank + 1).
 */
function rankedTermsOf(ranked: Int32Array, matchedByUnit: number[][], terms: string[], rankOf: Int32Array): (rank: number) => string[] {
  for (let rank = 0; rank < ranked.length; rank++) rankOf[ranked[rank]!] = -(rank + 1);
  // A counting sort of (rank, unit) by rank, stable: each rank's units stay in the units' order.
  const starts = new Int32Array(ranked.length + 1);
  for (const documents of matchedByUnit) {
    for (const document of documents) if (rankOf[document]! < 0) starts[-rankOf[document]!]!++;
  }
  for (let rank = 1; rank <= ranked.length; rank++) starts[rank]! += starts[rank - 1]!;
  const next = starts.slice(0, ranked.length);
  const units = new Int32Array(starts[ranked.length]!);
  matchedByUnit.forEach((documents, unit) => {
    for (const document of documents) if (rankOf[document]! < 0) units[next[-rankOf[document]! - 1]!++] = unit;
  });
  return (rank) => Array.from(units.subarray(starts[rank]!, starts[rank + 1]!), (unit) => terms[unit]!);
}

/**
 * A posting's BM25+ score from its frequency and its document's field length (MiniSearch's formula), before it is
 * multiplied by the list's inverse document frequency.
 */
function bm25Factor(frequency: number, length: number, averageLength: number): number {
  return D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * length) / averageLength));
}

/** bm25Factor of every field, length up to the field's longest and frequency below TABULATED_FREQUENCIES (see CompactTextIndex.factors). */
function factorTable(fieldLengths: ArrayLike<number>, averageFieldLengths: Float64Array): { factors: Float64Array; rows: Int32Array } {
  const fieldCount = averageFieldLengths.length;
  // Read off the lengths themselves, so that every length an index holds has its row.
  const longestFields = new Int32Array(fieldCount);
  for (let i = 0; i < fieldLengths.length; i++) longestFields[i % fieldCount] = Math.max(longestFields[i % fieldCount]!, fieldLengths[i]!);
  const rows = new Int32Array(fieldCount);
  let rowCount = 0;
  longestFields.forEach((longest, field) => {
    rows[field] = rowCount;
    rowCount += longest + 1;
  });
  const factors = new Float64Array(rowCount * TABULATED_FREQUENCIES);
  longestFields.forEach((longest, field) => {
    for (let length = 0; length <= longest; length++)
      for (let frequency = 0; frequency < TABULATED_FREQUENCIES; frequency++)
        factors[(rows[field]! + length) * TABULATED_FREQUENCIES + frequency] = bm25Factor(frequency, length, averageFieldLengths[field]!);
  });
  return { factors, rows };
}

/** How many postings a term's lists have. */
function postingCountOf(lists: TermLists): number {
  let count = 0;
  for (let i = 0; i < lists.starts.length; i++) count += lists.ends[i]! - lists.starts[i]!;
  return count;
}

/** Each posting of a term's lists, the lists one after the other: its document, its place in the postings and its list. */
function postingsOneListAfterAnother(
  lists: TermLists,
  postingDocuments: Int32Array,
  documents: Int32Array,
  postings: Int32Array,
  listOf: Int32Array,
): void {
  // One loop, moving to the next list when one ends (see readWhole: an inner loop's code is left at each list's end).
  let list = -1;
  let posting = 0;
  let end = 0;
  for (let k = 0; ;) {
    if (posting === end) {
      if (++list === lists.starts.length) break;
      posting = lists.starts[list]!;
      end = lists.ends[list]!;
      continue;
    }
    documents[k] = postingDocuments[posting]!;
    postings[k] = posting++;
    listOf[k++] = list;
  }
}

/** The postings' places, lists and frequencies written to `into` in the order of `places` (PostingsByDocument's order). */
function postingsInPlaceOrder(
  places: Int32Array,
  postings: Int32Array,
  listOf: Int32Array,
  postingFrequencies: Uint16Array | Int32Array,
  into: PostingsByDocument,
): void {
  for (let j = 0; j < places.length; j++) {
    const place = places[j]!;
    into.postings[j] = postings[place]!;
    into.frequencies[j] = postingFrequencies[postings[place]!]!;
    into.lists[j] = listOf[place]!;
  }
}

/** The first place at or after `from` (and before `end`) of a value at or after `value` in ascending values: galloping, then halving. */
function firstAtOrAfter(values: Int32Array, value: number, from: number, end: number): number {
  let low = from;
  let high = from;
  let step = 1;
  while (high < end && values[high]! < value) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  if (high > end) high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
