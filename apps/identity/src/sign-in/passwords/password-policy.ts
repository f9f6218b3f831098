import { Injectable } from '@nestjs/common';
import { ZxcvbnFactory, type MatchExtended } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

/**
 * Why a password is easy to guess (NIST SP 800-63B §5.1.1.2's blocklist), from the longest pattern found in it; the
 * person is told which, never the part of the password that made it.
 */
export type GuessablePassword =
  'common_password' | 'common_words' | 'personal_words' | 'repeated_characters' | 'sequential_characters' | 'date' | 'easy_to_guess';

export type PasswordProblem = 'too_short' | 'too_long' | 'contains_email' | 'too_simple' | GuessablePassword;

/** Who the password is for, and what a guesser would try first for them: their names, the app's, this service's host. */
export interface PasswordContext {
  email: string;
  names: readonly (string | null | undefined)[];
  host: string;
}

/**
 * Fewer guesses than this, as zxcvbn-ts counts them with the person's own words added (its scores 0 to 2), and the
 * password is refused: about three hours for one machine trying 10^4 a second against a stolen scrypt hash.
 */
export const MIN_GUESSES = 1e8;
/**
 * zxcvbn-ts matches every substring against every dictionary, so its time grows with the square of the length: the
 * first 32 UTF-16 units are judged, a few milliseconds at most. A longer password whose first 32 are guessable is
 * refused; one whose first 32 are not is strong whatever follows.
 */
const JUDGED_UNITS = 32;
/** Spelling variants (p@ssw0rd) tried per substring; the library's 100 made a check ten times slower for little. */
const LEET_VARIANTS = 10;

/**
 * What a password must be: 12 to 128 characters, not containing the email or its name part, at least 5
 * different characters, not easy to guess; judged in NFKC, the form that is hashed, where different characters may
 * be one. Spaces in a row count as one towards the 12 (ASVS 4.0.3 V2.1.1), though every one of them is part of the
 * password. Only a new password is judged: one already set signs in as before.
 */
@Injectable()
export class PasswordPolicy {
  /** The dictionaries (about 57,000 words) are ranked once, when identity starts. */
  private readonly guesser = new ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    maxLength: JUDGED_UNITS,
    l33tMaxSubstitutions: LEET_VARIANTS,
  });

  problem(password: string, context: PasswordContext): PasswordProblem | null {
    const hashed = password.normalize('NFKC');
    const characters = [...hashed];
    if ([...hashed.replace(/\s+/gu, ' ')].length < MIN_PASSWORD_LENGTH) return 'too_short';
    if (characters.length > MAX_PASSWORD_LENGTH) return 'too_long';
    const lower = hashed.toLowerCase();
    const address = context.email.normalize('NFKC').toLowerCase();
    const localPart = address.split('@')[0] ?? '';
    if (lower.includes(address) || (localPart.length >= 4 && lower.includes(localPart))) return 'contains_email';
    if (new Set(characters).size < 5) return 'too_simple';
    const estimate = this.guesser.check(hashed, personalWords(context));
    return estimate.guesses < MIN_GUESSES ? guessableBecause(estimate.sequence) : null;
  }
}

/**
 * The email, its name part and domain, each name, and the host's name, whole, run together and word by word, for
 * zxcvbn-ts to try first.
 */
function personalWords(context: PasswordContext): string[] {
  const address = context.email.normalize('NFKC');
  const [localPart = '', domain = ''] = address.split('@');
  const names = context.names.filter((name): name is string => !!name);
  const phrases = [address, localPart, withoutTopLevel(domain), withoutTopLevel(context.host), ...names];
  const words = new Set<string>();
  for (const phrase of phrases) {
    const normalized = phrase.normalize('NFKC').trim();
    const parts = normalized.split(/[^\p{L}\p{N}]+/u).filter((part) => part.length > 0);
    for (const word of [normalized, parts.join(''), ...parts]) if (word) words.add(word);
  }
  return [...words];
}

/** id.example.com is a guesser's "id example", not "com". */
function withoutTopLevel(host: string): string {
  const labels = host.split('.');
  return (labels.length > 1 ? labels.slice(0, -1) : labels).join('.');
}

/** The reason told is that of the pattern covering most of the password (as zxcvbn-ts's own feedback picks it). */
function guessableBecause(sequence: MatchExtended[]): GuessablePassword {
  const patterns = sequence.filter((match) => match.pattern !== 'bruteforce' && match.pattern !== 'separator');
  const longest = patterns.reduce<MatchExtended | undefined>(
    (best, match) => (!best || match.token.length > best.token.length ? match : best),
    undefined,
  );
  switch (longest?.pattern) {
    case 'dictionary':
      if (longest['dictionaryName'] === 'userInputs') return 'personal_words';
      return longest['dictionaryName'] === 'passwords-common' ? 'common_password' : 'common_words';
    case 'wordSequence':
      return 'common_words';
    case 'repeat':
      return 'repeated_characters';
    case 'sequence':
    case 'spatial':
      return 'sequential_characters';
    case 'date':
    case 'regex':
      return 'date';
    default:
      return 'easy_to_guess';
  }
}
