// What a sentence of a practice says against the clause it is most about, read from the sentence's own words
// rather than from a clause's condition phrases: that something is not done (no, never, 没有), or that it is
// done regardless ("even though the rule says", "anyway", 尽管). Practices that depart from a clause say so in
// everyday words the clause does not use; these markers are how a departure is said, whatever its subject.
import type { Localized } from '@stdreg/contracts';
import { isGated } from './clause-conditions';
import { foldText, isHan, isNegated, negationIn, searchTerms } from './search-text';

const CONCESSION =
  /(?<![a-z])(even though|even if|although|though|anyway|regardless|despite|in spite of|instead of|instead|just|straight)(?![a-z])|虽然|尽管|即使|即便|照样|照常|仍然|仍旧|依然|反正|不管|直接/u;
const PROHIBITION = /不得|禁止|严禁|不允许|不可/u;
/** A bound (no later than 90 days, 不超过) limits what a clause obliges; it forbids nothing. */
const BOUND = /\b(no|not) (later|earlier|more|less|fewer|longer|sooner) than\b|不得?晚于|不得?早于|不得?超过|不少于|不低于|不高于|不多于/gu;
/** "No longer needed", 不再需要: a change of state, not a statement that something is not done. */
const NO_LONGER = /\bno longer\b|不再/giu;
/** Where one requirement of a clause ends and the next begins (a clause may oblige one thing and forbid another). */
const REQUIREMENT_BOUNDARY = /[;；:：，]|,\s*(?:and|but|or)?\s*/u;

/** A negation contracted into its verb (don't, hadn't, aren’t). */
const CONTRACTION = /[a-z]+n['’]t(?![a-z])/iu;
/** A part of a sentence that sets a condition (when the tool can't match, if a key isn't used): it says what happens in a case. */
const CONDITION = /(?<![a-z])(if|when|whenever|unless|once|where)(?![a-z])[^,;:]*$/iu;

/**
 * A contracted negation that is not in a condition ("partner keys don't expire", not "when the tool can't match
 * …, it refuses"): read as a departure only, never where a statement is read (docs/decisions.md, issue 28).
 */
function unconditionalContraction(sentence: string): string | undefined {
  const contraction = CONTRACTION.exec(sentence);
  if (!contraction || CONDITION.test(sentence.slice(0, contraction.index))) return undefined;
  return contraction[0];
}

/**
 * Words of an act done loosely or after the fact (roughly, give or take, verbally, backdated;
 * 大概, 口头, 事后, 补签, 顺手): how a practice says it does what a clause asks, but not the way it asks.
 */
const LOOSENESS =
  /(?<![a-z])(roughly|approximately|give or take|more or less|ballpark|informally|verbally|by word of mouth|after the fact|retroactive\w*|backdat\w*|ad hoc|on the fly)(?![a-z])|大概|大约|差不多|凭感觉|口头|私下|事后|补签|补录|倒签|随便|顺手|干脆|索性|看情况/u;

/** Whether a requirement forbids (must not, never, 不得) rather than obliges. */
function forbids(requirement: string): boolean {
  const unbounded = requirement.replace(BOUND, ' ');
  return isNegated(unbounded) || PROHIBITION.test(unbounded);
}

/**
 * Whether the requirements of the clause that the sentence is about (those sharing most of its words)
 * forbid rather than oblige: a sentence saying a forbidden thing is not done keeps the clause.
 */
function aboutAProhibition(sentence: string, clause: string): boolean {
  const words = new Set(searchTerms(sentence));
  const requirements = clause.split(REQUIREMENT_BOUNDARY).filter((part) => part.trim().length > 0);
  const shared = requirements.map((part) => new Set(searchTerms(part).filter((word) => words.has(word))).size);
  const most = Math.max(...shared);
  return requirements.some((part, i) => shared[i] === most && forbids(part));
}

/**
 * The words of the sentence that mark a departure from the clause, or undefined when it says neither. A
 * concession always does; a negation only of what the clause obliges, read in the sentence's language.
 */
export function departureCue(sentence: string, clause: Localized): string | undefined {
  const folded = foldText(sentence);
  const concession = CONCESSION.exec(folded)?.[0] ?? LOOSENESS.exec(folded)?.[0];
  if (concession) return concession;
  // A sentence that makes the act wait (没有指定接收方，系统拒绝启用，补上后才通过) negates what is missing before it may go ahead.
  if (isGated(folded)) return undefined;
  const negation = negationIn(sentence.replace(NO_LONGER, ' ')) ?? unconditionalContraction(sentence);
  if (!negation) return undefined;
  return aboutAProhibition(sentence, isHan(sentence) ? clause['zh-Hans'] : clause.en) ? undefined : negation;
}
