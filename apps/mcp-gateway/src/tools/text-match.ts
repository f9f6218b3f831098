// Deterministic word matching for the tools that map free text to registry items (no language model).
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'has',
  'have',
  'in',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'that',
  'the',
  'their',
  'this',
  'to',
  'was',
  'we',
  'who',
  'will',
  'with',
  'our',
  'us',
  'i',
  'my',
  'need',
  'needs',
  'someone',
  'every',
  'each',
  'must',
  'may',
  'not',
  'no',
  'all',
  'any',
  'can',
  'do',
  'does',
  'into',
  'than',
  'then',
  'there',
  'they',
]);

/** Normalized for comparison: lower case, accents removed, width-folded. */
export function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Latin words (stemmed crudely: a trailing s dropped) and Han characters in pairs, without stop words. */
export function keywords(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of normalize(text).match(/[a-z0-9]+/g) ?? []) {
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    words.add(word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word);
  }
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    if (run.length === 1) words.add(run);
    for (let i = 0; i + 1 < run.length; i++) words.add(run.slice(i, i + 2));
  }
  return words;
}

/** The query's keywords that also occur in the candidate, sorted. */
export function sharedKeywords(query: Set<string>, candidate: Set<string>): string[] {
  return [...query].filter((word) => candidate.has(word)).sort();
}
