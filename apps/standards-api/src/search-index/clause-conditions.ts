// The phrases a content pack gives a clause: what a practice says when it meets the clause (`requires`) and
// when it states the opposite (`contradictedBy`). A phrase is cues separated by spaces, every cue found in
// one sentence; a cue is alternatives separated by `|`, `_` standing for a space inside one. A Latin
// alternative matches at the start of a word (approv: approve, approval), a Chinese one anywhere.
import { foldText, holdsContractedNegation, isHan, isNegated } from './search-text';

export interface ClauseConditions {
  requires: string[];
  contradictedBy: string[];
}

/** A phrase of a clause found in a sentence of the practice. */
export interface ConditionMatch {
  sentence: string;
  phrase: string;
}

/**
 * One way a cue is met, and the key a text must contain for it to be: the first word of a Latin alternative
 * begins a word of the text; a Chinese one's first two characters (or its one) are in the text anywhere.
 */
interface Alternative {
  pattern: RegExp;
  /** The alternative folded, which a text must contain for the pattern to match it: looked for before the pattern is run. */
  text: string;
  key: string;
  han: boolean;
}

type Cue = Alternative[];

/** Every name of a registry term, by termId. */
export type TermNames = (termId: string) => string[];

function compileCue(cue: string, namesOf: TermNames): Cue {
  return cue
    .split('|')
    .flatMap((alternative) => (alternative.startsWith('@') ? namesOf(alternative.slice(1)) : [alternative]))
    .filter((alternative) => alternative.length > 0)
    .map((alternative) => {
      const folded = foldText(alternative.replace(/_/g, ' '));
      const text = folded.replace(/[.*+?^${}()[\]\\]/g, '\\$&');
      if (isHan(alternative)) return { pattern: new RegExp(text, 'u'), text: folded, key: folded.slice(0, 2), han: true };
      return {
        pattern: new RegExp(`(?<![\\p{L}\\p{N}-])${text}${text.length <= 3 ? 's?(?![\\p{L}\\p{N}])' : ''}`, 'u'),
        text: folded,
        key: LEADING_WORD.exec(folded)?.[0] ?? '',
        han: false,
      };
    });
}

interface CompiledPhrase {
  phrase: string;
  cues: Cue[];
  /** Says that something is not done (nobody approves, without review): it may span a whole sentence. */
  negative: boolean;
}

/**
 * Compiles the phrases of a release's clauses, each distinct phrase and cue once: a pack says the same
 * things of many clauses (at full size 42 000 cues, 1 762 distinct), and a pattern is only read (no `g` or
 * `y` flag), so the clauses share it.
 */
export class PhraseCompiler {
  private readonly phrases = new Map<string, CompiledPhrase>();
  private readonly cues = new Map<string, Cue>();
  private readonly conditions = new Map<string, CompiledConditions>();

  constructor(private readonly namesOf: TermNames) {}

  /**
   * The conditions compiled, one object for the clauses given the same phrases: what they find in a practice
   * depends on the phrases alone, so an alignment search reads it once for all of them (at full size 5 096
   * conditioned clauses have 287 distinct lists of phrases).
   */
  conditionsOf(conditions: ClauseConditions): CompiledConditions {
    const key = JSON.stringify([conditions.requires, conditions.contradictedBy]);
    let compiled = this.conditions.get(key);
    if (compiled === undefined) this.conditions.set(key, (compiled = new CompiledConditions(conditions, this)));
    return compiled;
  }

  compile(phrases: string[]): CompiledPhrase[] {
    return phrases.map((phrase) => {
      let compiled = this.phrases.get(phrase);
      if (compiled === undefined) {
        compiled = {
          phrase,
          cues: phrase
            .trim()
            .split(/\s+/)
            .map((cue) => this.cue(cue)),
          negative: isNegated(phrase.replace(/[|_]/g, ' ')),
        };
        this.phrases.set(phrase, compiled);
      }
      return compiled;
    });
  }

  private cue(cue: string): Cue {
    let compiled = this.cues.get(cue);
    if (compiled === undefined) this.cues.set(cue, (compiled = compileCue(cue, this.namesOf)));
    return compiled;
  }
}

/** A sentence that limits what is done (an agent only drafts) says nothing positive across its clauses. */
const RESTRICTED = /(?<![a-z])(only|solely|merely|just)(?![a-z])|只|仅/u;

/**
 * A sentence that makes what is done wait for someone or something (nothing takes effect until a person adopts
 * it, 必须等主管放行才出款, 补上了接收方后才通过, 只有确认应收的收入才进结算) states the control a clause asks for,
 * whatever else it says was done automatically: Chinese says "only then" with 才 after the condition (X后才, 只有X才).
 */
const GATED =
  /(?<![a-z])(until|only after|only once|not before|must first|has to first)(?![a-z])|之前必须|必须等|等到|直到|才会|才能|才可|方可|须经|需经|后才|只有[^，。；,;]{0,30}才/u;

/** Whether a sentence, folded by foldText, makes what is done wait for someone or something (GATED). */
export function isGated(folded: string): boolean {
  return GATED.test(folded);
}

/** The clauses of a sentence (split at commas, colons and "but"), where a positive phrase must be found whole. */
function clausesOf(sentence: string): string[] {
  return sentence.split(/[,，、:：]|\bbut\b|但是|但/u).filter((clause) => clause.trim().length > 0);
}

const LEADING_WORD = /^[\p{L}\p{N}]+/u;
const WORD = /[\p{L}\p{N}]+/gu;

export class CompiledConditions {
  private readonly requires: CompiledPhrase[];
  private readonly contradictedBy: CompiledPhrase[];
  /** The phrases of contradictedBy that are negative, and the others, each in its order. */
  private readonly negative: CompiledPhrase[];
  private readonly positive: CompiledPhrase[];

  constructor(conditions: ClauseConditions, compiler: PhraseCompiler | TermNames) {
    const phrases = compiler instanceof PhraseCompiler ? compiler : new PhraseCompiler(compiler);
    this.requires = phrases.compile(conditions.requires);
    this.contradictedBy = phrases.compile(conditions.contradictedBy);
    this.negative = this.contradictedBy.filter((p) => p.negative);
    this.positive = this.contradictedBy.filter((p) => !p.negative);
  }

  /** The cues of each phrase: one of each must be found in a sentence for the phrase to be. */
  get phraseCues(): Cue[][] {
    return [...this.requires, ...this.contradictedBy].map((phrase) => phrase.cues);
  }

  /**
   * Sentences that state the opposite of the clause: a negative phrase anywhere in the sentence, a positive
   * one (an agent approves) within one clause of it that is not itself negated (never lets an agent approve),
   * or across the sentence when nothing in it is negated or limited (an agent only drafts).
   */
  contradictions(sentences: string[], texts = new PracticeTexts()): ConditionMatch[] {
    const { negative, positive } = this;
    return sentences.flatMap((sentence) => {
      if (texts.gated(sentence)) return [];
      const found =
        texts.firstMatch(negative, sentence) ??
        texts
          .affirmativeClausesOf(sentence)
          .map((clause) => texts.firstMatch(positive, clause))
          .find((phrase) => phrase !== undefined) ??
        (texts.negatedOrRestricted(sentence) ? undefined : texts.firstMatch(positive, sentence));
      return found ? [{ sentence, phrase: found.phrase }] : [];
    });
  }

  /** Sentences that state what the clause requires, in the affirmative (a negated sentence never does, nor one with isn't, don't). */
  statements(sentences: string[], texts = new PracticeTexts()): ConditionMatch[] {
    return sentences
      .filter((sentence) => !texts.deniesOrNegated(sentence))
      .flatMap((sentence) => {
        const phrase = texts.firstMatch(this.requires, sentence);
        return phrase ? [{ sentence, phrase: phrase.phrase }] : [];
      });
  }
}

/**
 * What is known of the texts of one practice while its conditioned clauses are tried: each text folded, split
 * and tested for negation once, and whether each phrase is found in it. A pack gives many clauses the same
 * phrases (at full size, thousands of clauses share a few hundred), and a phrase, compiled from its text
 * alone, is found in a text or not whichever clause it belongs to.
 */
export class PracticeTexts {
  private readonly folded = new Map<string, string>();
  private readonly negations = new Map<string, boolean>();
  private readonly affirmativeClauses = new Map<string, string[]>();
  private readonly found = new Map<string, Map<string, boolean>>();
  /** Whether a cue is found in a text, by the cue's compiled alternatives: phrases share their cues (a subject, a verb). */
  private readonly cuesFound = new Map<string, Map<Cue, boolean>>();
  private readonly gatedTexts = new Map<string, boolean>();
  private readonly restricted = new Map<string, boolean>();

  firstMatch(phrases: CompiledPhrase[], text: string): CompiledPhrase | undefined {
    let foundInText = this.found.get(text);
    if (foundInText === undefined) this.found.set(text, (foundInText = new Map()));
    for (const phrase of phrases) {
      let found = foundInText.get(phrase.phrase);
      if (found === undefined) {
        found = phrase.cues.every((cue) => this.cueFound(cue, text));
        foundInText.set(phrase.phrase, found);
      }
      if (found) return phrase;
    }
    return undefined;
  }

  private cueFound(cue: Cue, text: string): boolean {
    let cuesInText = this.cuesFound.get(text);
    if (cuesInText === undefined) this.cuesFound.set(text, (cuesInText = new Map()));
    let found = cuesInText.get(cue);
    if (found === undefined) {
      const folded = this.fold(text);
      found = cue.some((alternative) => folded.includes(alternative.text) && alternative.pattern.test(folded));
      cuesInText.set(cue, found);
    }
    return found;
  }

  negated(text: string): boolean {
    let negated = this.negations.get(text);
    if (negated === undefined) this.negations.set(text, (negated = isNegated(text)));
    return negated;
  }

  /** Whether a text cannot state a requirement: negated, or with a contracted negation (isn't, don't). */
  deniesOrNegated(text: string): boolean {
    return this.negated(text) || holdsContractedNegation(this.fold(text));
  }

  /** Whether a sentence says nothing positive across its clauses: negated, or limiting what is done. */
  negatedOrRestricted(sentence: string): boolean {
    return this.negated(sentence) || this.tested(RESTRICTED, this.restricted, sentence);
  }

  /** Whether a sentence makes what is done wait for someone or something (GATED). */
  gated(sentence: string): boolean {
    return this.tested(GATED, this.gatedTexts, sentence);
  }

  /** Whether a pattern matches the text folded, remembered in `found` (one map a pattern). */
  private tested(pattern: RegExp, found: Map<string, boolean>, text: string): boolean {
    let matches = found.get(text);
    if (matches === undefined) found.set(text, (matches = pattern.test(this.fold(text))));
    return matches;
  }

  /** The clauses of a sentence that are not themselves negated, in order. */
  affirmativeClausesOf(sentence: string): string[] {
    let clauses = this.affirmativeClauses.get(sentence);
    if (clauses === undefined)
      this.affirmativeClauses.set(sentence, (clauses = clausesOf(sentence).filter((clause) => !this.negated(clause))));
    return clauses;
  }

  /** The text folded as foldText folds it. */
  fold(text: string): string {
    let folded = this.folded.get(text);
    if (folded === undefined) this.folded.set(text, (folded = foldText(text)));
    return folded;
  }
}

/**
 * The conditioned clauses' conditions filed by a cue of each of their phrases (the rarest), so that a sentence
 * is tried only against the conditions whose cue it contains: a phrase none of whose cues a sentence contains
 * cannot be found in it, nor in any part of it. Clauses that share their compiled conditions (PhraseCompiler's
 * conditionsOf) are filed once, as those conditions: a sentence is tried on each distinct list of phrases once,
 * however many clauses the corpus gives it.
 */
export class ConditionsByCue {
  private readonly byWordStart = new Map<string, Set<CompiledConditions>>();
  private readonly byCharacters = new Map<string, Set<CompiledConditions>>();
  /** Conditions with a phrase that has no cue to file it under (an alternative without a letter): always tried. */
  private readonly unfiled = new Set<CompiledConditions>();
  /** The clauses of each conditions, in the order given. */
  private readonly clauses = new Map<CompiledConditions, string[]>();

  constructor(conditions: Iterable<[string, CompiledConditions]>) {
    for (const [clauseId, compiled] of conditions) {
      const clauseIds = this.clauses.get(compiled);
      if (clauseIds) clauseIds.push(clauseId);
      else this.clauses.set(compiled, [clauseId]);
    }
    // A key's frequency counts every clause filed under it, as if each had its own conditions.
    const frequency = new Map<string, number>();
    const keyOf = (alternative: Alternative) => `${alternative.han ? 'han' : 'word'}:${alternative.key}`;
    for (const [compiled, clauseIds] of this.clauses) {
      for (const cue of compiled.phraseCues.flat()) {
        for (const key of new Set(cue.map(keyOf))) frequency.set(key, (frequency.get(key) ?? 0) + clauseIds.length);
      }
    }
    const cost = (cue: Cue) =>
      cue.some((alternative) => alternative.key === '') ? Infinity : cue.reduce((sum, a) => sum + frequency.get(keyOf(a))!, 0);
    for (const compiled of this.clauses.keys()) {
      for (const cues of compiled.phraseCues) {
        const rarest = cues.reduce<Cue | undefined>((best, cue) => (best === undefined || cost(cue) < cost(best) ? cue : best), undefined);
        if (rarest === undefined || cost(rarest) === Infinity) {
          this.unfiled.add(compiled);
          continue;
        }
        for (const alternative of rarest) {
          const map = alternative.han ? this.byCharacters : this.byWordStart;
          const filed = map.get(alternative.key);
          if (filed) filed.add(compiled);
          else map.set(alternative.key, new Set([compiled]));
        }
      }
    }
  }

  /** The clauses given these conditions. */
  clausesWith(compiled: CompiledConditions): readonly string[] {
    return this.clauses.get(compiled) ?? [];
  }

  /** The conditions that may be found in a sentence, or in one of its clauses. */
  conditionsFor(sentence: string): Set<CompiledConditions> {
    const found = new Set(this.unfiled);
    const add = (filed: Set<CompiledConditions> | undefined) => filed?.forEach((compiled) => found.add(compiled));
    // The sentence's parts are folded apart, as they are tried, in case folding a part differs from a slice of the whole.
    for (const folded of new Set([sentence, ...clausesOf(sentence)].map(foldText))) {
      for (const word of folded.match(WORD) ?? []) {
        for (let length = 1; length <= word.length; length++) add(this.byWordStart.get(word.slice(0, length)));
      }
      for (let i = 0; i < folded.length; i++) {
        add(this.byCharacters.get(folded[i]!));
        add(this.byCharacters.get(folded.slice(i, i + 2)));
      }
    }
    return found;
  }
}
