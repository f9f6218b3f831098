// The phrases a content pack gives a clause: what a practice says when it meets the clause (`requires`) and
// when it states the opposite (`contradictedBy`). A phrase is cues separated by spaces, every cue found in
// one sentence; a cue is alternatives separated by `|`, `_` standing for a space inside one. A Latin
// alternative matches at the start of a word (approv: approve, approval), a Chinese one anywhere.
import { foldText, isHan, isNegated } from './search-text';

export interface ClauseConditions {
  requires: string[];
  contradictedBy: string[];
}

/** A phrase of a clause found in a sentence of the practice. */
export interface ConditionMatch {
  sentence: string;
  phrase: string;
}

type Cue = RegExp[];

/** Every name of a registry term, by termId. */
export type TermNames = (termId: string) => string[];

function compileCue(cue: string, namesOf: TermNames): Cue {
  return cue
    .split('|')
    .flatMap((alternative) => (alternative.startsWith('@') ? namesOf(alternative.slice(1)) : [alternative]))
    .filter((alternative) => alternative.length > 0)
    .map((alternative) => {
      const text = foldText(alternative.replace(/_/g, ' ')).replace(/[.*+?^${}()[\]\\]/g, '\\$&');
      if (isHan(alternative)) return new RegExp(text, 'u');
      return new RegExp(`(?<![\\p{L}\\p{N}-])${text}${text.length <= 3 ? 's?(?![\\p{L}\\p{N}])' : ''}`, 'u');
    });
}

interface CompiledPhrase {
  phrase: string;
  cues: Cue[];
  /** Says that something is not done (nobody approves, without review): it may span a whole sentence. */
  negative: boolean;
}

function compile(phrases: string[], namesOf: TermNames): CompiledPhrase[] {
  return phrases.map((phrase) => ({
    phrase,
    cues: phrase
      .trim()
      .split(/\s+/)
      .map((cue) => compileCue(cue, namesOf)),
    negative: isNegated(phrase.replace(/[|_]/g, ' ')),
  }));
}

/** A sentence that limits what is done (an agent only drafts) says nothing positive across its clauses. */
const RESTRICTED = /(?<![a-z])(only|solely|merely|just)(?![a-z])|只|仅/u;

/** The clauses of a sentence (split at commas, colons and "but"), where a positive phrase must be found whole. */
function clausesOf(sentence: string): string[] {
  return sentence.split(/[,，、:：]|\bbut\b|但是|但/u).filter((clause) => clause.trim().length > 0);
}

export class CompiledConditions {
  private readonly requires: CompiledPhrase[];
  private readonly contradictedBy: CompiledPhrase[];

  constructor(conditions: ClauseConditions, namesOf: TermNames) {
    this.requires = compile(conditions.requires, namesOf);
    this.contradictedBy = compile(conditions.contradictedBy, namesOf);
  }

  get isEmpty(): boolean {
    return this.requires.length === 0 && this.contradictedBy.length === 0;
  }

  /**
   * Sentences that state the opposite of the clause: a negative phrase anywhere in the sentence, a positive
   * one (an agent approves) within one clause of it that is not itself negated (never lets an agent approve),
   * or across the sentence when nothing in it is negated or limited (an agent only drafts).
   */
  contradictions(sentences: string[]): ConditionMatch[] {
    const negative = this.contradictedBy.filter((p) => p.negative);
    const positive = this.contradictedBy.filter((p) => !p.negative);
    return sentences.flatMap((sentence) => {
      const found =
        firstMatch(negative, sentence) ??
        clausesOf(sentence)
          .filter((clause) => !isNegated(clause))
          .map((clause) => firstMatch(positive, clause))
          .find((phrase) => phrase !== undefined) ??
        (isNegated(sentence) || RESTRICTED.test(foldText(sentence)) ? undefined : firstMatch(positive, sentence));
      return found ? [{ sentence, phrase: found.phrase }] : [];
    });
  }

  /** Sentences that state what the clause requires, in the affirmative (a negated sentence never does). */
  statements(sentences: string[]): ConditionMatch[] {
    return matches(
      this.requires,
      sentences.filter((sentence) => !isNegated(sentence)),
    );
  }
}

function firstMatch(phrases: CompiledPhrase[], text: string): CompiledPhrase | undefined {
  const folded = foldText(text);
  return phrases.find((p) => p.cues.every((cue) => cue.some((alternative) => alternative.test(folded))));
}

function matches(phrases: CompiledPhrase[], sentences: string[]): ConditionMatch[] {
  return sentences.flatMap((sentence) => {
    const phrase = firstMatch(phrases, sentence);
    return phrase ? [{ sentence, phrase: phrase.phrase }] : [];
  });
}
