// The one full-text index of a registry release (MiniSearch's ranking in a compact form: BM25+, field weights,
// prefix and typo tolerance), built with the release's snapshot: terms by their names, designations and definitions,
// clauses of the current standards with their block's headings and condition phrases (and each block whole, its
// clauses as one document), roles with the tasks they take part in. It serves GET /terms?q= and POST /search, so every free-text tool asks one question.
// It is built from the release's records a batch at a time and keeps none of them whole: a hit names its term
// or block, whose record the caller reads from the database (docs/decisions.md, issue 30).
import { sentencesOf, type Localized, type RoleDto, type StandardBlockDto, type TaskSpecDto, type TermDto } from '@stdreg/contracts';
import {
  CompiledConditions,
  ConditionsByCue,
  PhraseCompiler,
  PracticeTexts,
  type ClauseConditions,
  type ConditionMatch,
} from './clause-conditions';
import {
  CompactTextIndex,
  TextIndexBuild,
  type TextDocument,
  type TextIndexParts,
  type TextRanking,
  type TextSearchOptions,
} from './compact-text-index';
import { blockOfClause, ClauseBlocks } from './clause-blocks';
import { departureCue } from './departures';
import { firstOf } from './first-of';
import { foldText, isHan, searchTerms, searchTermsOfAll } from './search-text';
import { NearWords } from './near-words';
import { TermNameIndex, type NamedTerm } from './term-names';
import { IndexedTermsBuild, type IndexedTerm, type IndexedTerms } from './indexed-terms';
import { storedIndexFor, type StoredTextIndexes } from './search-index-snapshot';

export type { IndexedTerm } from './indexed-terms';

/** A current standards block and the conditions the pack gives its clauses (both languages together), as the index is built from it. */
export interface IndexedStandard {
  block: StandardBlockDto;
  conditions: Map<string, ClauseConditions>;
}

/** A current standards block as the index keeps it: its heading and its clauses by id, without their text. */
export interface IndexedBlock {
  sectionId: string;
  version: string;
  citation: string;
  title: Localized;
  clauseIds: string[];
}

/** What the index is built from: the release's records a batch at a time, each list in its key's order. */
export interface SearchIndexSource {
  terms: AsyncIterable<TermDto[]>;
  standards: AsyncIterable<IndexedStandard[]>;
  roles: RoleDto[];
  tasks: AsyncIterable<TaskSpecDto[]>;
}

export interface TermHit {
  term: IndexedTerm;
  score: number;
  /** exact: the text is the term's name; synonym: one of its synonyms or designations; near: found by search. */
  match: 'exact' | 'synonym' | 'near';
  matchedWords: string[];
}

/** A ranking of terms whose hits are made one at a time, by position (ranked further only when read further). */
export interface RankedTerms {
  /** The hit at a position, or undefined past the last. */
  hitAt(position: number): TermHit | undefined;
  /** The id of the hit's term at a position (hitAt's, without making the hit), or undefined past the last. */
  termIdAt(position: number): string | undefined;
}

export interface RoleHit {
  role: RoleDto;
  score: number;
  matchedWords: string[];
}

/** A sentence of the practice that bears on a clause: the words it shares with it, the registry terms it names. */
export interface Evidence {
  sentence: string;
  words: string[];
  terms: string[];
}

/** A clause's finding; its text is the block record's (the caller reads it). */
export interface ClauseFinding {
  clauseId: string;
  score: number;
  evidence: Evidence[];
  /** Sentences stating what the clause requires (never a negated one). */
  stated: ConditionMatch[];
  /** Sentences stating the opposite of what the clause requires. */
  contradicted: ConditionMatch[];
  /** Sentences about this clause above all (DEPARTURE_SHARE) that say it is not done, or done regardless. */
  departures: Departure[];
}

/** A sentence of which the clause is the one it is most about, and its words that mark a departure. */
export interface Departure {
  sentence: string;
  cue: string;
}

export interface StandardHit {
  block: IndexedBlock;
  score: number;
  clauses: ClauseFinding[];
  /** Registry terms the practice names that this block governs. */
  terms: string[];
}

/** What the practice says of a block besides its clauses' relevance: each adds to the block's score. */
interface BlockSignals {
  contradicted: number;
  stated: number;
  terms: Set<string>;
  /** The block's ranks in the sentences' rankings, fused (SENTENCE_VOTE), and WHOLE_BLOCK_VOTE if first as a whole. */
  votes: number;
}

/** A block as an alignment search ranks it: its score, the most its clauses not yet scored could bring it to, and those clauses. */
interface BlockHit {
  sectionId: string;
  score: number;
  /** The score without the sentences' votes. */
  unvoted: number;
  most: number;
  votes: number;
  terms: string[];
  /** How many of its clauses are neither scored nor known to score nothing (scored alone, or every clause found). */
  unscored: number;
}

const SHORT_QUERY_TERMS = 6;
/** The clauses an alignment search ranks at first for each block it is asked for (a block has about eight). */
const CLAUSES_PER_BLOCK_HIT = 24;
/** The term hits ranked at first: a page of search results and the next page's first hit. */
const FIRST_TERM_HITS = 64;
const WARM_UP_PRACTICE =
  'Our AI agent releases payments automatically every Friday; nobody signs off on them, and the same analyst prepares and approves the settlement run. 我们的AI助手每周自动付款，没有人审批，结算批次由同一人编制并审批。';
/** A hit scoring below this share of the best one is noise, not an answer. */
const RELATIVE_FLOOR = 0.12;
/** A clause is evidence-worthy for a sentence when it scores at least this share of the sentence's best clause. */
const EVIDENCE_SHARE = 0.45;
/** A sentence is about the clauses scoring at least this share of its best one: only there can it contradict a clause. */
const ABOUT_SHARE = 0.15;
/**
 * A sentence is about the clauses scoring at least this share of its best one (a sentence may depart from two
 * clauses at once: posted before the period closed, and edited after posting).
 */
const DEPARTURE_SHARE = 0.8;
/**
 * What a block gains from the ranking of whole blocks when it is first there and the practice contradicts no
 * clause (issue 28, sixth round): a contradiction says what the practice is about more surely than its words.
 */
const WHOLE_BLOCK_VOTE = 0.5;
/** What a block gains from each sentence whose best evidence clause is one of its clauses (issue 28, fifth round). */
const SENTENCE_VOTE = 0.3;
/** The constant of reciprocal rank fusion: the block a sentence ranks second gains 2/3 of the vote, the third 1/2. */
const RANK_FUSION_CONSTANT = 1;
/** What the registry names of the terms a role description names count beside its own words. */
const TERM_NAMES_WEIGHT = 0.5;
/**
 * What a block's second and third best clauses add to its relevance beside its best one (issue 28, eighth round:
 * 0.25 and 0.1 before). A practice's words as a whole belong to its standard, whose second clause is often about it
 * too, while a block of another family tends to have one clause that shares a few of its words.
 */
const SECOND_CLAUSE_SHARE = 0.5;
const THIRD_CLAUSE_SHARE = 0.1;
/** More than a score rounded to thousandths (round) can be off from the value it was rounded from. */
const ROUNDING_SLACK = 0.001;

/** Which of a term's registry names are added to a text: both languages', or the English one alone. */
export type NameLanguages = 'both' | 'en';

/**
 * The registry names added to a whole practice (issue 28, eighth round): a practice without Chinese characters gets
 * the English names alone. A clause holds its text in both languages, so the English name finds it; the Chinese name
 * is split into character pairs (最小货币单位: five search terms), and as a document's score is multiplied by how many
 * of the query's terms it matches, a term the practice names once counted several times over every other word it
 * wrote. A Chinese practice keeps both (its own words are character pairs already, and the English names read with
 * them; measured: without them its figures fell).
 */
export function wholePracticeNames(practice: string): NameLanguages {
  return isHan(practice) ? 'both' : 'en';
}

/**
 * A block's relevance to the whole practice: its best clause's score, and shares of its second and third, against
 * the best clause of any block; with `moreCount` more clauses scoring `more` beside `clauseScores` (its other clauses
 * score 0). Its three best are taken without building and sorting a list: hundreds of blocks are worked out an ask at
 * full size.
 */
export function blockRelevance(clauseScores: readonly number[], bestClause: number, more = 0, moreCount = 0): number {
  if (bestClause === 0) return 0;
  let first = 0;
  let second = 0;
  let third = 0;
  const take = (score: number) => {
    if (score > first) {
      third = second;
      second = first;
      first = score;
    } else if (score > second) {
      third = second;
      second = score;
    } else if (score > third) third = score;
  };
  for (const score of clauseScores) take(score);
  for (let i = 0; i < Math.min(moreCount, 3); i++) take(more);
  return (first + SECOND_CLAUSE_SHARE * second + THIRD_CLAUSE_SHARE * third) / bestClause;
}

/**
 * Prefix and typo look-ups for the words of the query; with `writtenOnly`, for the words as written only: the
 * registry names added to it (withTermNames) are spelled right and looked up as they are, which keeps the longer
 * query from costing a prefix and typo search per added word (roles: 2.7 times the search of the query alone).
 */
function searchOptions(query: string, boost: Record<string, number>, writtenOnly = false): TextSearchOptions {
  const written = new Set(searchTerms(query));
  const short = [...written].filter((term) => !isHan(term)).length <= SHORT_QUERY_TERMS;
  const lookedUp = (term: string) => !writtenOnly || written.has(term);
  return {
    boost,
    prefix: (term) => lookedUp(term) && !isHan(term) && term.length >= 3,
    fuzzy: (term) => short && lookedUp(term) && !isHan(term) && term.length >= 5 && (term.length >= 9 ? 2 : 1),
    weights: { fuzzy: 0.5, prefix: 0.4 },
  };
}

const TERM_FIELDS = ['name', 'designations', 'termWords', 'definition'];
const CLAUSE_FIELDS = ['text', 'conditions', 'heading'];
/** What a word found in each field counts when the whole practice is searched (a block's fields are its clauses'). */
const BLOCK_BOOST = { text: 2, conditions: 1.5, heading: 1 };

const ROLE_FIELDS = ['name', 'description', 'responsibilities', 'tasks'];

function index(fields: string[], documents: Iterable<TextDocument> | TextIndexBuild | TextIndexParts): CompactTextIndex {
  return new CompactTextIndex(fields, searchTerms, documents, searchTermsOfAll);
}

const both = (text: Localized): string => `${text.en}\n${text['zh-Hans']}`;
const bothLists = (list: Localized<string[]>): string => [...list.en, ...list['zh-Hans']].join('\n');

interface SearchIndexParts {
  termIndex: CompactTextIndex;
  clauseIndex: CompactTextIndex;
  blockIndex: CompactTextIndex;
  roleIndex: CompactTextIndex;
  terms: IndexedTerms;
  roles: Map<string, RoleDto>;
  standards: Map<string, IndexedBlock>;
  clauseTexts: Map<string, Localized>;
  clauseKeys: Map<string, string[]>;
  compiled: Map<string, CompiledConditions>;
  termNames: TermNameIndex;
  nearWords: NearWords;
}

export class RegistrySearchIndex {
  private readonly termIndex: CompactTextIndex;
  private readonly clauseIndex: CompactTextIndex;
  /** Each block as one document (its clauses and heading): a word's weight is by how few blocks use it. */
  private readonly blockIndex: CompactTextIndex;
  private readonly roleIndex: CompactTextIndex;
  private readonly terms: IndexedTerms;
  private readonly roles: Map<string, RoleDto>;
  private readonly standards: Map<string, IndexedBlock>;
  /** Each current clause's text, which a departure is read against (a few MB at full size; the blocks stay in the database). */
  private readonly clauseTexts: Map<string, Localized>;
  /** Each block's clauses by their keys in the clause index (RUL-3#2), the strings clauseTexts holds: an alignment search looks up hundreds of blocks' clauses. */
  private readonly clauseKeys: Map<string, string[]>;
  /** The conditions of the clauses the pack gives any (a clause without is in none of them), one object for the clauses given the same phrases. */
  private readonly compiled: Map<string, CompiledConditions>;
  /** The clauses the pack gives conditions, by their cues: only these can be contradicted or stated. */
  private readonly conditionsByCue: ConditionsByCue;
  /** The clauses of each conditions (ConditionsByCue.clausesWith) by their numbers in the clause index. */
  private readonly clauseDocumentsWith: Map<CompiledConditions, number[]>;
  /** The conditions of each clause given any, by its number in the clause index (compiled's, by number). */
  private readonly conditionsOfClause: (CompiledConditions | undefined)[];
  /** Every name of each term, for finding the terms a text names or is the name of. */
  private readonly termNames: TermNameIndex;
  /** The words of the terms' names by their trigrams, for a look-up the term index finds nothing for. */
  private readonly nearWords: NearWords;
  /** The block of each clause by its number in the clause index. */
  private readonly clauseBlocks: ClauseBlocks;

  /**
   * Builds the index of a release from its records, read a batch at a time: each batch's text is indexed
   * as it comes and let go, and of each record it keeps what a hit needs, never the record itself. With the
   * release's stored text indexes (search-index-snapshot.ts), its texts are not indexed again: the records
   * give the rest, and must be those the stored indexes were built from (else UnreadableSearchIndexSnapshot).
   */
  static async build(source: SearchIndexSource, stored?: StoredTextIndexes): Promise<RegistrySearchIndex> {
    const keptTerms = new IndexedTermsBuild();
    const termBuild = new TextIndexBuild(TERM_FIELDS, searchTermsOfAll);
    const termIds: string[] = [];
    const namedTerms: NamedTerm[] = [];
    for await (const batch of source.terms) {
      const termDocuments: TextDocument[] = [];
      for (const term of batch) {
        keptTerms.add(term.termId, term.term, term.standards);
        termIds.push(term.termId);
        namedTerms.push({
          termId: term.termId,
          names: [term.term.en, term.term['zh-Hans']],
          otherNames: [term.synonyms, term.designations].flatMap((names) => [names.en, names['zh-Hans']].flat()),
        });
        if (stored) continue;
        termDocuments.push({
          id: term.termId,
          fields: [
            both(term.term),
            `${bothLists(term.synonyms)}\n${bothLists(term.designations)}`,
            term.termId.replace(/-/g, ' '),
            both(term.definition),
          ],
        });
      }
      termBuild.add(termDocuments);
    }
    const terms = keptTerms.done();
    const termIndex = index(TERM_FIELDS, stored ? storedIndexFor(stored.terms, TERM_FIELDS, termIds) : termBuild);
    const termNames = new TermNameIndex(namedTerms);
    const nearWords = new NearWords(termNames.foldedNames());

    const namesByTerm = new Map(namedTerms.map((term) => [term.termId, term]));
    const namesOf = (termId: string): string[] => {
      const term = namesByTerm.get(termId);
      return term ? [...term.names, ...term.otherNames] : [];
    };
    const standards = new Map<string, IndexedBlock>();
    const clauseTexts = new Map<string, Localized>();
    const clauseKeys = new Map<string, string[]>();
    const compiled = new Map<string, CompiledConditions>();
    const phrases = new PhraseCompiler(namesOf);
    const clauseBuild = new TextIndexBuild(CLAUSE_FIELDS, searchTermsOfAll);
    const blockBuild = new TextIndexBuild(CLAUSE_FIELDS, searchTermsOfAll);
    const clauseIds: string[] = [];
    const blockIds: string[] = [];
    for await (const batch of source.standards) {
      const clauses: TextDocument[] = [];
      for (const standard of batch) {
        const { block } = standard;
        standards.set(block.sectionId, {
          sectionId: block.sectionId,
          version: block.version,
          citation: block.citation,
          title: block.title,
          clauseIds: block.clauses.map((clause) => clause.clauseId),
        });
        if (block.clauses.length > 0) blockIds.push(block.sectionId);
        const heading = `${both(block.title)}\n${both(block.summary)}\n${block.tags.join(' ')}`;
        const keys: string[] = [];
        clauseKeys.set(block.sectionId, keys);
        for (const clause of block.clauses) {
          const id = `${block.sectionId}#${clause.clauseId}`;
          keys.push(id);
          const conditions = standard.conditions.get(clause.clauseId) ?? { requires: [], contradictedBy: [] };
          if (conditions.requires.length > 0 || conditions.contradictedBy.length > 0) {
            compiled.set(id, phrases.conditionsOf(conditions));
          }
          clauseTexts.set(id, clause.text);
          clauseIds.push(id);
          if (stored) continue;
          const conditionText = [...conditions.requires, ...conditions.contradictedBy].join('\n').replace(/[|_@]/g, ' ');
          clauses.push({ id, fields: [both(clause.text), conditionText, heading] });
        }
      }
      // A block's document is its clauses' tokens (their text and conditions) and its heading's once.
      let block: { sectionId: string; tokensOfFields: string[][] } | undefined;
      clauseBuild.add(clauses, (id, [text, conditions, heading]) => {
        const sectionId = blockOfClause(id);
        if (block?.sectionId !== sectionId) {
          if (block) blockBuild.addTokenized(block.sectionId, block.tokensOfFields);
          block = { sectionId, tokensOfFields: [[], [], heading!] };
        }
        for (const token of text!) block.tokensOfFields[0]!.push(token);
        for (const token of conditions!) block.tokensOfFields[1]!.push(token);
      });
      if (block) blockBuild.addTokenized(block.sectionId, block.tokensOfFields);
    }
    const clauseIndex = index(CLAUSE_FIELDS, stored ? storedIndexFor(stored.clauses, CLAUSE_FIELDS, clauseIds) : clauseBuild);
    const blockIndex = index(CLAUSE_FIELDS, stored ? storedIndexFor(stored.blocks, CLAUSE_FIELDS, blockIds) : blockBuild);

    const tasksOf = new Map<string, string[]>();
    for await (const batch of source.tasks) {
      for (const task of batch) {
        for (const role of task.roles) tasksOf.set(role, [...(tasksOf.get(role) ?? []), both(task.title), both(task.description)]);
      }
    }
    const roles = new Map(source.roles.map((role) => [role.role, role]));
    const roleIndex = index(
      ROLE_FIELDS,
      stored
        ? storedIndexFor(
            stored.roles,
            ROLE_FIELDS,
            source.roles.map((role) => role.role),
          )
        : source.roles.map((role) => ({
            id: role.role,
            fields: [
              `${both(role.name)}\n${role.role.replace(/-/g, ' ')}`,
              both(role.description),
              bothLists(role.responsibilities),
              (tasksOf.get(role.role) ?? []).join('\n'),
            ],
          })),
    );
    return new RegistrySearchIndex({
      termIndex,
      clauseIndex,
      blockIndex,
      roleIndex,
      terms,
      roles,
      standards,
      clauseTexts,
      clauseKeys,
      compiled,
      termNames,
      nearWords,
    });
  }

  private constructor(parts: SearchIndexParts) {
    this.termIndex = parts.termIndex;
    this.clauseIndex = parts.clauseIndex;
    this.blockIndex = parts.blockIndex;
    this.roleIndex = parts.roleIndex;
    this.terms = parts.terms;
    this.roles = parts.roles;
    this.standards = parts.standards;
    this.clauseTexts = parts.clauseTexts;
    this.clauseKeys = parts.clauseKeys;
    this.compiled = parts.compiled;
    this.termNames = parts.termNames;
    this.nearWords = parts.nearWords;
    this.conditionsByCue = new ConditionsByCue(this.compiled);
    this.clauseDocumentsWith = new Map(
      [...new Set(this.compiled.values())].map((conditions) => [
        conditions,
        this.clauseIndex.documentsOf(this.conditionsByCue.clausesWith(conditions)),
      ]),
    );
    this.conditionsOfClause = new Array<CompiledConditions | undefined>(this.clauseIndex.documentCount).fill(undefined);
    for (const [conditions, documents] of this.clauseDocumentsWith)
      for (const document of documents) this.conditionsOfClause[document] = conditions;
    this.clauseBlocks = new ClauseBlocks(this.clauseIndex);
    // V8 compiles a condition pattern on its first use: those of the common cues (approval, agents, payment)
    // here, when the release loads, not on a request; the rest on the first sentence with their cue.
    this.searchStandards(WARM_UP_PRACTICE, 1);
  }

  /** The text indexes, as a snapshot stores them (search-index-snapshot.ts). */
  textIndexes(): StoredTextIndexes {
    return {
      terms: { fields: TERM_FIELDS, parts: this.termIndex.parts() },
      clauses: { fields: CLAUSE_FIELDS, parts: this.clauseIndex.parts() },
      blocks: { fields: CLAUSE_FIELDS, parts: this.blockIndex.parts() },
      roles: { fields: ROLE_FIELDS, parts: this.roleIndex.parts() },
    };
  }

  /** How many terms, blocks and roles the index answers with (what it keeps of each is in IndexedTerm and IndexedBlock). */
  get size(): { terms: number; standards: number; roles: number } {
    return { terms: this.terms.size, standards: this.standards.size, roles: this.roles.size };
  }

  /** Terms by relevance to a word or phrase in either language: names first, then designations, definitions last. */
  searchTerms(query: string, limit: number): TermHit[] {
    const ranked = this.rankTerms(query, limit);
    const hits: TermHit[] = [];
    for (let position = 0; position < limit; position++) {
      const hit = ranked.hitAt(position);
      if (hit === undefined) break;
      hits.push(hit);
    }
    return hits;
  }

  /**
   * The terms of searchTerms in the same order, each hit made only when asked for: a common word ranks
   * thousands of terms, and a page shows a few. The index ranks the first `firstHits` (and the terms the
   * query names, wherever they rank), and four times as many each time a read goes past them.
   */
  rankTerms(query: string, firstHits = FIRST_TERM_HITS): RankedTerms {
    const ranked = this.rankTermsOf(query, firstHits, false);
    if (ranked.termIdAt(0) !== undefined) return ranked;
    // Nothing found: the look-up again with its unknown words replaced by the nearest words of the names.
    const corrected = this.nearWords.corrected(foldText(query));
    return corrected === undefined ? ranked : this.rankTermsOf(corrected, firstHits, true);
  }

  /** rankTerms of a text as written, or (`near`) of a look-up's words corrected, whose hits are all near. */
  private rankTermsOf(query: string, firstHits: number, near: boolean): RankedTerms {
    const folded = foldText(query).trim();
    const options = searchOptions(query, { name: 4, designations: 3, termWords: 2, definition: 0.6 });
    // The terms the query is a name of, looked up once rather than by folding every hit's names.
    const called = this.termNames.calledBy(query);
    const isNamed = (termId: string) => called.has(termId) || termId === folded;
    // The term the text names outright comes before any found by search; each group stays in score order.
    const keep = new Set([...called.keys(), folded]);
    let ranking: TextRanking;
    let named: number[] = [];
    let nearHits: number[] = [];
    const rank = (limit: number) => {
      ranking = this.termIndex.search(query, options, { atLeast: RELATIVE_FLOOR, limit, keep });
      named = [];
      nearHits = [];
      for (let position = 0; position < ranking.size; position++) (isNamed(ranking.idAt(position)) ? named : nearHits).push(position);
    };
    let limit = Math.max(1, firstHits);
    rank(limit);
    /** The place in the ranking of the hit at a position, ranking further when it is past those ranked. */
    const rankingPlaceOf = (position: number): number | undefined => {
      if (!Number.isInteger(position) || position < 0 || position >= this.terms.size) return undefined;
      while (position >= named.length + nearHits.length && !ranking.complete) rank((limit = Math.max(limit * 4, position + 1)));
      return position < named.length ? named[position] : nearHits[position - named.length];
    };
    return {
      termIdAt: (position) => {
        const at = rankingPlaceOf(position);
        return at === undefined ? undefined : ranking.idAt(at);
      },
      hitAt: (position) => {
        const at = rankingPlaceOf(position);
        if (at === undefined) return undefined;
        const term = this.terms.get(ranking.idAt(at))!;
        const name = called.get(term.termId);
        const match = near ? 'near' : name === 'own' ? 'exact' : name === 'other' || term.termId === folded ? 'synonym' : 'near';
        return { term, score: round(ranking.scoreAt(at)), match, matchedWords: ranking.queryTermsAt(at) };
      },
    };
  }

  /**
   * Roles by relevance to a described person or need (their names, responsibilities and tasks). The registry
   * names of the terms the description names are searched apart and count half: they say what the person
   * deals with, the description's own words what the person does.
   */
  searchRoles(query: string, limit: number): RoleHit[] {
    const options = searchOptions(query, { name: 1.5, responsibilities: 2, description: 1.5, tasks: 1 }, true);
    const found = new Map<string, { score: number; matchedWords: Set<string> }>();
    const add = (ranking: TextRanking, weight: number) => {
      for (let rank = 0; rank < ranking.size; rank++) {
        const id = ranking.idAt(rank);
        const role = found.get(id) ?? { score: 0, matchedWords: new Set<string>() };
        role.score += weight * ranking.scoreAt(rank);
        for (const word of ranking.queryTermsAt(rank)) role.matchedWords.add(word);
        found.set(id, role);
      }
    };
    add(this.roleIndex.search(query, options), 1);
    const names = this.termNamesOf(this.termsNamedIn(query));
    if (names !== undefined) add(this.roleIndex.search(names, options), TERM_NAMES_WEIGHT);
    const ranked = [...found].sort(([a, x], [b, y]) => y.score - x.score || a.localeCompare(b));
    const best = ranked[0]?.[1].score ?? 0;
    return ranked
      .filter(([, role]) => role.score >= best * RELATIVE_FLOOR)
      .slice(0, limit)
      .map(([id, role]) => ({ role: this.roles.get(id)!, score: round(role.score), matchedWords: [...role.matchedWords] }));
  }

  /**
   * Current standards by relevance to a described practice, each clause with the sentences that bear on it
   * and the sentences that state, or contradict, what it requires.
   */
  searchStandards(practice: string, limit: number): StandardHit[] {
    const sentences = sentencesOf(practice);
    const namedTerms = sentences.map((sentence) => this.termsNamedIn(sentence));
    /**
     * Each sentence's ranking of clauses: its first `evidence` are its evidence (EVIDENCE_SHARE of its best), its first
     * `departing` those it is about above all (DEPARTURE_SHARE). Both are read only for the clauses of the blocks
     * answered: at full size a sentence's evidence is hundreds of clauses.
     */
    const rankingsOf: { ranking: TextRanking; evidence: number; departing: number }[] = [];
    /** The sentences about each contradicted clause, by the clause's number in the clause index. */
    const about = new Map<number, Set<string>>();
    /** For each sentence, the blocks of its evidence clauses by number (ClauseBlocks), best first. */
    const blocksOfSentences: Set<number>[] = [];
    // Each distinct conditions (those of every clause given the same phrases) is tried on the sentences that contain
    // a cue of it, in the practice's order, once for all its clauses.
    const bearingOf = new Map<CompiledConditions, string[]>();
    for (const sentence of sentences) {
      for (const conditions of this.conditionsByCue.conditionsFor(sentence)) {
        const bearing = bearingOf.get(conditions);
        if (bearing) bearing.push(sentence);
        else bearingOf.set(conditions, [sentence]);
      }
    }
    const texts = new PracticeTexts();
    // The sentences that state the opposite of each conditions' clauses, for those that have any; a contradiction counts
    // only in a sentence about the clause.
    const contradictedIn = new Map<CompiledConditions, ConditionMatch[]>();
    for (const [conditions, bearing] of bearingOf) {
      const found = conditions.contradictions(bearing, texts);
      if (found.length > 0) contradictedIn.set(conditions, found);
    }
    // The conditions each sentence contradicts, in the order found (each clause has one conditions).
    const contradictedBy = new Map<string, Set<CompiledConditions>>();
    for (const [conditions, matches] of contradictedIn) {
      for (const { sentence } of matches) {
        const contradicted = contradictedBy.get(sentence);
        if (contradicted) contradicted.add(conditions);
        else contradictedBy.set(sentence, new Set([conditions]));
      }
    }
    sentences.forEach((sentence, i) => {
      const query = this.withTermNames(sentence, namedTerms[i]);
      const options = searchOptions(sentence, { text: 2, conditions: 1.5, heading: 0.5 });
      // The evidence's share bounds the search; whether the sentence is about a clause (a lower share) is asked
      // only of the clauses it contradicts, scored by the same search: at full size a sentence is about thousands of
      // clauses, and of a thousand it contradicts, a few dozen.
      const contradicted = contradictedBy.get(sentence);
      const ranking = this.clauseIndex.search(query, options, {
        atLeast: EVIDENCE_SHARE,
        reaching: contradicted && {
          documents: [...contradicted].flatMap((conditions) => this.clauseDocumentsWith.get(conditions)!),
          atLeast: ABOUT_SHARE,
        },
      });
      for (const document of ranking.reaching) about.set(document, (about.get(document) ?? new Set()).add(sentence));
      let departing = 0;
      while (departing < ranking.size && ranking.scoreAt(departing) >= ranking.scoreAt(0) * DEPARTURE_SHARE) departing++;
      const blocksOfSentence = new Set<number>();
      blocksOfSentences.push(blocksOfSentence);
      let rank = 0;
      for (; rank < ranking.size && ranking.scoreAt(rank) >= ranking.scoreAt(0) * EVIDENCE_SHARE; rank++) {
        blocksOfSentence.add(this.clauseBlocks.blockOf(ranking.documentAt(rank)));
      }
      rankingsOf.push({ ranking, evidence: rank, departing });
    });
    const practiceTerms = namedTerms.flat();

    // A contradiction counts only in a sentence about the clause (one of its evidence): a phrase's cues found in a
    // sentence about something else (a rounding rule's "cent … calculated" in a sentence on access) say nothing of it.
    // Only a clause scored about a sentence can be contradicted: the clauses of `about`, with the contradictions found.
    const contradictions = new Map<number, ConditionMatch[]>();
    for (const [document, aboutSentences] of about) {
      const found = contradictedIn.get(this.conditionsOfClause[document]!)!.filter((match) => aboutSentences.has(match.sentence));
      if (found.length > 0) contradictions.set(document, found);
    }
    // A sentence that states the opposite of any clause supports none: it is a finding, not a statement.
    const contradicting = new Set([...contradictions.values()].flat().map((match) => match.sentence));
    /** The sentences that state what each conditions' clauses require, for those that have any. */
    const statedIn = new Map<CompiledConditions, ConditionMatch[]>();
    for (const [conditions, bearing] of bearingOf) {
      const found = conditions.statements(
        bearing.filter((sentence) => !contradicting.has(sentence)),
        texts,
      );
      if (found.length > 0) statedIn.set(conditions, found);
    }
    // A clause's own list: the clauses given the same phrases share what was found.
    const statementsOf = (id: string): ConditionMatch[] => {
      const conditions = this.compiled.get(id);
      return conditions === undefined ? [] : [...(statedIn.get(conditions) ?? [])];
    };

    // A block's signals: how many of its clauses are contradicted and stated, the practice's terms it governs.
    const signalsOf = new Map<string, BlockSignals>();
    const signalsOfSection = (sectionId: string) => {
      let signals = signalsOf.get(sectionId);
      if (signals === undefined) signalsOf.set(sectionId, (signals = { contradicted: 0, stated: 0, terms: new Set(), votes: 0 }));
      return signals;
    };
    // Reciprocal rank fusion of each sentence's ranking of blocks into the whole practice's: a block gains
    // SENTENCE_VOTE for each sentence whose best evidence is in it, less for those ranking it lower.
    for (const blocks of blocksOfSentences) {
      let rank = 0;
      for (const block of blocks) {
        signalsOfSection(this.clauseBlocks.sectionIdOf(block)).votes +=
          (SENTENCE_VOTE * (RANK_FUSION_CONSTANT + 1)) / (RANK_FUSION_CONSTANT + rank + 1);
        rank++;
      }
    }
    // The whole practice with the registry's names of the terms it names, as both whole-practice searches ask it:
    // a practice without Chinese characters gets their English names alone (wholePracticeNames).
    const wholeQuery = this.withTermNames(practice, undefined, wholePracticeNames(practice));
    const wholeOptions = searchOptions(practice, BLOCK_BOOST);
    // The block the practice is about as a whole: blocks ranked as documents, where a word weighs by how few
    // blocks use it (in the clauses' ranking, by how few clauses); the first gains WHOLE_BLOCK_VOTE.
    if (contradictions.size === 0) {
      const wholeBlocks = this.blockIndex.search(wholeQuery, wholeOptions, { limit: 1 });
      if (wholeBlocks.size > 0) signalsOfSection(wholeBlocks.idAt(0)).votes += WHOLE_BLOCK_VOTE;
    }
    const sectionOf = (document: number) => this.clauseBlocks.sectionIdOf(this.clauseBlocks.blockOf(document));
    for (const document of contradictions.keys()) signalsOfSection(sectionOf(document)).contradicted++;
    for (const conditions of statedIn.keys()) {
      for (const document of this.clauseDocumentsWith.get(conditions)!) signalsOfSection(sectionOf(document)).stated++;
    }
    for (const term of practiceTerms) for (const sectionId of term.standards) signalsOfSection(sectionId).terms.add(term.termId);

    const { hits, clauseScores } = this.rankBlocks(wholeQuery, wholeOptions, limit, signalsOf);
    // What the sentences say of the clauses answered, in the practice's order: their evidence and their departures.
    // The clause index holds every clause of each block answered, and no other of theirs.
    const answeredSections = new Set(hits.map(({ block }) => block.sectionId));
    const evidence = new Map<string, Evidence[]>();
    const departures = new Map<string, Departure[]>();
    sentences.forEach((sentence, i) => {
      const { ranking, evidence: evidenceCount, departing } = rankingsOf[i]!;
      for (let rank = 0; rank < Math.max(evidenceCount, departing); rank++) {
        if (!answeredSections.has(this.clauseBlocks.sectionIdOf(this.clauseBlocks.blockOf(ranking.documentAt(rank))))) continue;
        const id = ranking.idAt(rank);
        if (rank < departing) {
          const cue = departureCue(sentence, this.clauseText(id));
          if (cue) departures.set(id, [...(departures.get(id) ?? []), { sentence, cue }]);
        }
        if (rank < evidenceCount) {
          evidence.set(id, [
            ...(evidence.get(id) ?? []),
            { sentence, words: ranking.queryTermsAt(rank), terms: namedTerms[i]!.map((t) => t.termId) },
          ]);
        }
      }
    });
    return hits.map(({ block, score, terms }) => ({
      block,
      score,
      clauses: block.clauseIds.map((clauseId): ClauseFinding => {
        const id = `${block.sectionId}#${clauseId}`;
        const document = this.clauseIndex.documentOf(id);
        const contradicted = (document !== undefined && contradictions.get(document)) || [];
        const stated = statementsOf(id);
        const bearing = [...(evidence.get(id) ?? [])];
        for (const match of [...contradicted, ...stated]) {
          if (!bearing.some((e) => e.sentence === match.sentence)) {
            const i = sentences.indexOf(match.sentence);
            bearing.push({ sentence: match.sentence, words: [], terms: (namedTerms[i] ?? []).map((t) => t.termId) });
          }
        }
        return {
          clauseId,
          score: round(clauseScores.get(id) ?? 0),
          evidence: bearing,
          stated,
          contradicted,
          departures: departures.get(id) ?? [],
        };
      }),
      terms,
    }));
  }

  /**
   * The blocks an alignment search answers, best first: a block scores its relevance to the whole practice
   * (blockRelevance: its three best clauses' scores against the best clause's) plus its signals; those below RELATIVE_FLOOR of the
   * best block are left out, and the first `limit` answered, with the scores of their clauses.
   *
   * The whole practice is searched for its first `CLAUSES_PER_BLOCK_HIT * limit` clauses, not for every clause
   * it matches: a clause not among them scores at most the last of them, so a block bounds its score with that
   * for each clause not found, and a block none of whose clauses are found (and without signals) scores at
   * most the relevance of three such clauses. The clauses of a block answered, or of one whose bound reaches
   * the last block answered (or the floor, when fewer are), are then scored alone, until every block answered
   * has all its clauses scored and no other block can reach it: the answer every clause's score would give.
   * Should a block none of whose clauses are found still reach it, the practice is searched again for four
   * times as many clauses.
   */
  private rankBlocks(
    query: string,
    options: TextSearchOptions,
    limit: number,
    signalsOf: Map<string, BlockSignals>,
  ): { hits: { block: IndexedBlock; score: number; terms: string[] }[]; clauseScores: Map<string, number> } {
    // A limit that is not a whole number of hits is answered as before: from every clause's score.
    let clauseLimit = Number.isInteger(limit) && limit >= 1 ? CLAUSES_PER_BLOCK_HIT * limit : Infinity;
    /** Clauses scored alone: their scores are in clauseScores, or they score nothing. */
    const scoredAlone = new Set<string>();
    const clauseScores = new Map<string, number>();
    /** The blocks of the clauses in clauseScores, and those some of whose clauses were scored alone. */
    const foundSections = new Set<string>();
    const openedSections = new Set<string>();
    /**
     * The scores of each block's clauses in clauseScores, rounded: a block's relevance is worked out from them and its
     * number of clauses, not by looking up each of its clauses (hundreds of blocks are worked out at full size).
     */
    const foundScores = new Map<string, number[]>();
    const addFound = (id: string, score: number) => {
      const sectionId = blockOfClause(id);
      foundSections.add(sectionId);
      const scores = foundScores.get(sectionId);
      if (scores === undefined) foundScores.set(sectionId, [round(score)]);
      else scores.push(round(score));
    };
    const searchWhole = () => {
      const whole = this.clauseIndex.search(query, options, { limit: clauseLimit });
      for (let rank = 0; rank < whole.size; rank++) clauseScores.set(whole.idAt(rank), whole.scoreAt(rank));
      foundScores.clear();
      for (const [id, score] of clauseScores) addFound(id, score);
      return whole;
    };
    let whole = searchWhole();
    const best = whole.size === 0 ? 0 : whole.scoreAt(0);
    /** What a block's signals give it: the same in every round of the loop. */
    const signalled = new Map<string, { terms: string[]; votes: number; signal: number }>();
    const signalledOf = (sectionId: string) => {
      let known = signalled.get(sectionId);
      if (known === undefined) {
        const signals = signalsOf.get(sectionId);
        signalled.set(
          sectionId,
          (known = { terms: [...(signals?.terms ?? [])].sort(), votes: signals?.votes ?? 0, signal: signalOf(signals) }),
        );
      }
      return known;
    };
    /**
     * Each block's hit as the last round worked it out: a round that only scores some clauses alone works out again
     * the blocks of those clauses alone (the others' clauses, and what a clause not found may score, are unchanged).
     */
    const hitOf = new Map<string, BlockHit>();
    // The signalled blocks by what their signals and votes give them, most first (hundreds at full size, where the
    // practice's words are in the evidence of clauses of many blocks, and its cues in the conditions of many).
    const bySignals = [...signalsOf].map(([sectionId, signals]) => ({ sectionId, signal: signalOf(signals), votes: signals.votes }));
    bySignals.sort((a, b) => b.signal + b.votes - (a.signal + a.votes));
    let mostSignal = 0;
    for (const { signal } of bySignals) if (signal > mostSignal) mostSignal = signal;
    for (;;) {
      // What a clause not found may score: nothing when the search found every clause, else the last one ranked.
      const unknown = whole.complete ? 0 : round(whole.scoreAt(clauseLimit - 1));
      const isKnown = (id: string) => whole.complete || clauseScores.has(id) || scoredAlone.has(id);
      // A block none of whose clauses were found or scored alone (most of the signalled ones) is worked out from its
      // number of clauses alone: each scores nothing (relevance 0), and at most `unknown`. Only its best three count.
      const noneFoundMost = [0, 1, 2, 3].map((count) => blockRelevance([], best, unknown, count));
      const hitFor = (sectionId: string): BlockHit | undefined => {
        const known = hitOf.get(sectionId);
        if (known !== undefined) return known;
        const keys = this.clauseKeys.get(sectionId);
        if (keys === undefined) return undefined;
        let relevance: number;
        let mostRelevance: number;
        let unscored: number;
        if (!foundSections.has(sectionId) && !openedSections.has(sectionId)) {
          relevance = 0;
          mostRelevance = noneFoundMost[Math.min(keys.length, 3)]!;
          unscored = whole.complete ? 0 : keys.length;
        } else {
          // A block opened had every clause not yet known scored alone; one not opened has none scored alone.
          const scores = foundScores.get(sectionId) ?? [];
          const notFound = keys.length - scores.length;
          unscored = whole.complete || openedSections.has(sectionId) ? 0 : notFound;
          relevance = blockRelevance(scores, best);
          mostRelevance = blockRelevance(scores, best, unknown, unscored);
        }
        const { terms, votes, signal } = signalledOf(sectionId);
        const score = round(relevance + signal);
        const hit: BlockHit = {
          sectionId,
          score: round(score + votes),
          unvoted: score,
          most: round(mostRelevance + signal + votes),
          votes,
          terms,
          unscored,
        };
        hitOf.set(sectionId, hit);
        return hit;
      };
      const blocks: BlockHit[] = [];
      for (const sectionId of new Set([...foundSections, ...openedSections])) {
        const hit = hitFor(sectionId);
        if (hit !== undefined) blocks.push(hit);
      }
      const answerOf = (candidates: BlockHit[]) => {
        const scored = candidates.filter((hit) => hit.score > 0);
        // The floor is a share of the best score before the sentences' votes: they reorder the blocks, not how many are answered.
        let bestUnvoted = 0;
        for (const hit of scored) if (hit.unvoted > bestUnvoted) bestUnvoted = hit.unvoted;
        const floor = bestUnvoted * RELATIVE_FLOOR;
        const hits = firstOf(
          scored.filter((hit) => hit.unvoted >= floor),
          limit,
          (a, b) => b.score - a.score || a.sectionId.localeCompare(b.sectionId),
        );
        const full = hits.length === limit;
        return { bestUnvoted, hits, full, last: full ? hits[hits.length - 1]!.score : Math.max(floor, Number.MIN_VALUE) };
      };
      // A quiet block (signalled, none of its clauses found or scored alone) scores its signals and votes, and its
      // clauses at most noneFoundMost[3] more. When no quiet block's score before votes, nor its bound before votes, can
      // raise the floor set by the blocks found, a quiet block whose bound is below the answer of the blocks found (the
      // last block of a full page, else the floor) can neither be answered nor opened, whatever the other quiet blocks
      // add (more blocks only raise the last one): the quiet blocks are worked out in order of their signals and votes
      // until that bound is below it. Else every quiet block is. Scores are rounded to thousandths, hence the slack.
      const isQuiet = (sectionId: string) => !foundSections.has(sectionId) && !openedSections.has(sectionId);
      const firstAnswer = answerOf(blocks);
      const boundedQuiet = noneFoundMost[3]! + mostSignal + ROUNDING_SLACK < firstAnswer.bestUnvoted;
      for (const { sectionId, signal, votes } of bySignals) {
        if (boundedQuiet && noneFoundMost[3]! + (signal + votes) + 2 * ROUNDING_SLACK < firstAnswer.last) break;
        if (!isQuiet(sectionId)) continue;
        const hit = hitFor(sectionId);
        if (hit !== undefined) blocks.push(hit);
      }
      const answer = answerOf(blocks);
      const { bestUnvoted, hits, full, last } = answer;
      // Open: a block answered without all its clauses scored, one not answered whose bound reaches the answer (the
      // last block's score, or the floor when fewer are answered), or one whose score before votes may raise the floor.
      const answered = new Set(hits);
      const open = blocks.filter(
        (hit) =>
          hit.unscored > 0 && (answered.has(hit) || (full ? hit.most : hit.most - hit.votes) >= last || hit.most - hit.votes > bestUnvoted),
      );
      if (open.length > 0) {
        const ids = new Set(open.flatMap((hit) => this.clauseKeys.get(hit.sectionId)!.filter((id) => !isKnown(id))));
        for (const [id, score] of this.clauseIndex.scoresOf(query, options, ids)) {
          clauseScores.set(id, score);
          addFound(id, score);
        }
        for (const id of ids) {
          scoredAlone.add(id);
          openedSections.add(blockOfClause(id));
          hitOf.delete(blockOfClause(id));
        }
      } else if (!whole.complete && round(blockRelevance([], best, unknown, 3)) >= last) {
        clauseLimit *= 4;
        whole = searchWhole();
        hitOf.clear();
      } else {
        return { hits: hits.map(({ sectionId, score, terms }) => ({ block: this.standards.get(sectionId)!, score, terms })), clauseScores };
      }
    }
  }

  private clauseText(id: string): Localized {
    return this.clauseTexts.get(id)!;
  }

  /**
   * The text with the registry names of the terms it calls by another name (a designation, a synonym), so
   * everyday words find the clauses and roles written in the registry's words.
   */
  private withTermNames(text: string, named = this.termsNamedIn(text), languages: NameLanguages = 'both'): string {
    const names = this.termNamesOf(named, languages);
    return names === undefined ? text : `${text}\n${names}`;
  }

  /** The registry names of terms (both languages, or English alone), a line each; undefined for none. */
  private termNamesOf(terms: IndexedTerm[], languages: NameLanguages = 'both'): string | undefined {
    if (terms.length === 0) return undefined;
    return terms.map((term) => (languages === 'en' ? term.term.en : `${term.term.en} ${term.term['zh-Hans']}`)).join('\n');
  }

  /** The registry terms a sentence names, by any of their names (whole words in Latin script). */
  private termsNamedIn(sentence: string): IndexedTerm[] {
    return this.termNames.namedIn(sentence).map((termId) => this.terms.get(termId)!);
  }
}

/** What a block's signals add to its score, votes aside: its clauses contradicted and stated, the practice's terms it governs. */
function signalOf(signals: BlockSignals | undefined): number {
  return (
    Math.min(2, signals?.contradicted ?? 0) * 1.2 + Math.min(2, signals?.stated ?? 0) * 0.5 + Math.min(3, signals?.terms.size ?? 0) * 0.1
  );
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
