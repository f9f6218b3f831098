// How registry text and queries become search terms, in both languages: Latin words folded and lightly
// stemmed; traditional Chinese folded to simplified (OpenCC's Taiwan-to-mainland tables, phrases included),
// as the registry writes zh-Hans; Chinese split into words by Intl.Segmenter and, beside them, into
// overlapping character pairs, so a word the segmenter does not know still matches by its pairs.
import { Converter } from 'opencc-js/t2cn';
import * as OpenCcTables from 'opencc-js/preset/t2cn';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been being by for from has have had in is it its of on or that the their them this these those to was were ' +
    'we our ours us i my me you your he she they who whom which what when where will would shall should can could do does did ' +
    'into than then there so such also just any each every all some'
  ).split(' '),
);
const CHINESE_STOP_WORDS = new Set([
  '的',
  '了',
  '和',
  '与',
  '及',
  '是',
  '在',
  '我们',
  '我',
  '你',
  '他',
  '她',
  '它',
  '们',
  '把',
  '被',
  '就',
  '都',
  '也',
  '并',
  '而',
  '或',
]);

const HAN = /\p{Script=Han}/u;
const SEGMENTER = new Intl.Segmenter('zh-Hans', { granularity: 'word' });

const toSimplified = Converter({ from: 'twp', to: 'cn' });

/**
 * The traditional characters OpenCC's tables turn into simplified ones: a text with none of them (all the
 * registry's zh-Hans) is left as it is without running the converter, which costs some 50 µs a sentence.
 */
const TRADITIONAL = ((): Set<string> => {
  const characters = new Set<string>();
  for (const group of OpenCcTables.to['cn'] ?? []) {
    for (const table of group) {
      if (typeof table !== 'string') continue;
      for (const entry of table.split('|')) {
        const [from, to] = entry.split(' ');
        if (from && [...from].length === 1 && from !== to) characters.add(from);
      }
    }
  }
  return characters;
})();

/** Whether a text holds a traditional character: a Han-free text (most queries) is told by one test. */
function holdsTraditional(text: string): boolean {
  if (!HAN.test(text)) return false;
  for (const character of text) if (TRADITIONAL.has(character)) return true;
  return false;
}

/**
 * Characters that never show (soft hyphen, zero-width space and joiners, word joiner, byte-order mark, variation
 * selectors): pasted from a web page or a PDF they sit inside words, which must still match.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Case-, width-, diacritic- and script-insensitive form of a text (traditional Chinese as simplified), without invisible characters. */
export function foldText(text: string): string {
  const visible = text.replace(INVISIBLE, '');
  const simplified = holdsTraditional(visible) ? toSimplified(visible) : visible;
  return simplified.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export function isHan(term: string): boolean {
  return HAN.test(term);
}

const ENDINGS: [string, string][] = [
  ['isations', 'is'],
  ['izations', 'iz'],
  ['isation', 'is'],
  ['ization', 'iz'],
  ['ations', ''],
  ['ation', ''],
  ['ments', ''],
  ['ment', ''],
  ['ings', ''],
  ['ing', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['es', ''],
  ['ed', ''],
  ['s', ''],
];

/** A light English stem: inflections and -ation, -ment endings dropped, so approves, approved and approving meet. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  let stemmed = word;
  for (const [ending, replacement] of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= 4 && !word.endsWith('ss')) {
      stemmed = word.slice(0, -ending.length) + replacement;
      break;
    }
  }
  return stemmed.length > 4 && stemmed.endsWith('e') ? stemmed.slice(0, -1) : stemmed;
}

/** Search terms of a text: stemmed Latin words, Chinese words and the character pairs of each Chinese run. */
export function searchTerms(text: string): string[] {
  const folded = foldText(text);
  const runs = hanRuns(folded);
  return termsOf(
    folded,
    runs,
    runs.map((run) => wordsOf(SEGMENTER.segment(run))),
  );
}

/**
 * The search terms of each text, as searchTerms gives them, with the Chinese runs of many texts segmented
 * in one call. Each call of the segmenter holds native memory (ICU iterators) until its objects are
 * collected: called once per run over a whole release, it left half a gigabyte of resident memory behind.
 */
export function searchTermsOfAll(texts: readonly string[]): string[][] {
  const folded = texts.map(foldText);
  const runsOfText = folded.map(hanRuns);
  const words = segmentTogether(runsOfText.flat());
  let next = 0;
  return folded.map((text, i) => {
    const runs = runsOfText[i]!;
    const wordsOfRuns = words.slice(next, (next += runs.length));
    return termsOf(text, runs, wordsOfRuns);
  });
}

const RUNS_PER_SEGMENTATION = 1000;

/** The words of each run, from one segmentation of the runs joined by newlines (a word boundary in every locale's rules). */
function segmentTogether(runs: string[]): string[][] {
  const words: string[][] = [];
  for (let start = 0; start < runs.length; start += RUNS_PER_SEGMENTATION) {
    const chunk = runs.slice(start, start + RUNS_PER_SEGMENTATION);
    let current: string[] = [];
    for (const segment of SEGMENTER.segment(chunk.join('\n'))) {
      if (segment.segment === '\n') {
        words.push(current);
        current = [];
      } else if (segment.isWordLike && !CHINESE_STOP_WORDS.has(segment.segment)) current.push(segment.segment);
    }
    words.push(current);
  }
  return words;
}

function hanRuns(folded: string): string[] {
  return folded.match(/\p{Script=Han}+/gu) ?? [];
}

function wordsOf(segments: Intl.Segments): string[] {
  const words: string[] = [];
  for (const segment of segments) if (segment.isWordLike && !CHINESE_STOP_WORDS.has(segment.segment)) words.push(segment.segment);
  return words;
}

/**
 * A hyphenated compound, tried only where a run of letters and digits starts: the same matches as without
 * the look-behind (a run that does not start one cannot from inside either), and linear where a long run
 * without a hyphen was quadratic (8 ms for 4 000 letters, read for each text of a search).
 */
export const HYPHENATED = /(?<![a-z0-9])[a-z0-9]+(?:-[a-z0-9]+)+/g;

function termsOf(folded: string, runs: string[], wordsOfRuns: string[][]): string[] {
  const terms: string[] = [];
  for (const word of folded.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (isHan(word)) continue;
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    terms.push(stem(word));
  }
  // A hyphenated compound is also one word (four-eyes: "foureyes"); in a short text (a name, a look-up)
  // so is a spaced pair (top line: "topline").
  for (const compound of folded.match(folded.length <= 40 ? /[a-z0-9]+(?:[-\s][a-z0-9]+)+/g : HYPHENATED) ?? []) {
    const joined = compound.replace(/[-\s]/g, '');
    if (joined.length >= 5) terms.push(stem(joined));
  }
  runs.forEach((run, i) => {
    terms.push(...wordsOfRuns[i]!);
    for (let j = 0; j + 1 < run.length; j++) terms.push(run.slice(j, j + 2));
  });
  return terms;
}

const NEGATION =
  /(?<![a-z])(no|not|never|without|nobody|none|nothing|neither|nor|cannot|n't|skip\w*|bypass\w*)(?![a-z])|没有|没|无需|无须|无人|从不|从未|不需|不用|不经|未经|未|不[^同得]|^不/u;

/** Whether a sentence says something is not done (then it cannot state that a requirement is met). */
export function isNegated(sentence: string): boolean {
  return NEGATION.test(foldText(sentence));
}

/**
 * A negation contracted into its verb (isn't, don't, can't, won't, aren’t). Not read as a finding (as a
 * negation it raised false alarms, docs/decisions.md), but a sentence with one never states a requirement.
 */
const CONTRACTED_NEGATION = /[a-z]n['’]t(?![a-z])/u;

/** Whether a text, folded as foldText folds it, holds a contracted negation. */
export function holdsContractedNegation(folded: string): boolean {
  return CONTRACTED_NEGATION.test(folded);
}

/** The words of a sentence that say something is not done (no, never, 没有), or undefined. */
export function negationIn(sentence: string): string | undefined {
  return NEGATION.exec(foldText(sentence))?.[0];
}
