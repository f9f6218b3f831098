// What a clause requires by its kind, read against what a sentence of the practice states, in words the clause
// does not use: shares that must sum to the whole against percentages that do not (50 %, 30 %, 25 %); whole basis points against a share with a fraction of
// one (33.333 %); one currency against two named side by side with no conversion; an order (convert before
// allocating) against the opposite one (分配之后才换汇); a change that may not reach back against a start
// before its signing (3月20日签, 从3月1日起); periods that must not overlap against ranges that do; one rule for a
// whole period against a period cut in parts (各管半个月); a duty recurring at least yearly against its last time
// two years ago (前年).
import type { Localized } from '@stdreg/contracts';
import { clauseTextFor, isChinese } from './clause-language';

/** What a sentence states against the kind of requirement a clause states. */
export interface KindDeparture {
  stated: string;
  required: string;
}

/** A sentence saying something is not so (we never keep two baselines): what it counts or orders is not done. */
const NEGATION =
  /(?<![a-z])(no|not|never|nobody|none|neither|nor|without|cannot)(?![a-z])|[a-z]n['’]t(?![a-z])|没|不(?![同少久断仅过管])|未(?!来)|无|别|勿|禁止/iu;
/** "Not yet", 还没: an order (posted while the period was not yet closed), which the order check reads. */
const NOT_YET = /(?<![a-z])not yet(?![a-z])|还没|尚未|没等/giu;
/** A sentence making a case (if two tiers share an id, the rule is refused): what it counts is not what is done. */
const CONDITIONAL =
  /(?<![a-z])(if|whenever|unless|should|would|refuse[sd]?|reject(?:s|ed)?|block(?:s|ed)?)(?![a-z])|如果|若|一旦|假如|拒绝|阻止/iu;

/** Where one requirement of a clause ends and the next begins. */
const REQUIREMENT_BOUNDARY = /[;；。]|,\s*(?:and|but|or)\s+|，(?:且|并|而)?/u;
const requirementsOf = (text: string) => text.split(REQUIREMENT_BOUNDARY).filter((part) => part.trim().length > 0);

const STOP_WORDS = new Set(
  'a an the of in on at to for by with within from and or any each every its their that this which who whose must may be is are was were have has had one only single unique exactly most least more than no not never all per same time'.split(
    ' ',
  ),
);
/** Characters that join or count rather than name (的, 个, 一, 只): a pair holding one names nothing. */
const CHINESE_FUNCTION_CHARACTERS = /[的个一只能有且必须最多任何时候每在于中和或与及其该被由应不得可以为是了也都各]/u;

/** The naming words of a text: Latin words that are not stop words, Chinese character pairs without a function character. */
function namingWords(text: string): string[] {
  const latin = (text.toLowerCase().match(/[a-z][a-z0-9-]*/g) ?? []).filter((word) => !STOP_WORDS.has(word));
  const pairs: string[] = [];
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    for (let i = 0; i + 1 < run.length; i++) {
      const pair = run.slice(i, i + 2);
      if (!CHINESE_FUNCTION_CHARACTERS.test(pair)) pairs.push(pair);
    }
  }
  return [...latin, ...pairs];
}

const stem = (word: string) => word.replace(/(?:ies|es|s)$/u, '');
/** Whether two naming words name the same thing: Chinese pairs equal, Latin words sharing a stem or one a prefix of the other (ID, identifier). */
function sameThing(a: string, b: string): boolean {
  if (isChinese(a) || isChinese(b)) return a === b;
  const [shorter, longer] = stem(a).length <= stem(b).length ? [stem(a), stem(b)] : [stem(b), stem(a)];
  if (shorter.length < 2) return false;
  return shorter.length >= 5
    ? longer.startsWith(shorter.slice(0, 5))
    : longer.startsWith(shorter) && (shorter.length >= 3 || longer.length > 5);
}
const namesAny = (words: string[], things: string[]) => words.some((word) => things.some((thing) => sameThing(word, thing)));

// --- Shares and their sum -------------------------------------------------------------------------------------

/** A requirement that shares add up to the whole: a sum or total that must equal 100 %, 10 000 basis points or the base. */
const SUM = /(?<![a-z])(sum|total|add up|adds up|summed)(?![a-z])|合计|总和|之和|加总|相加/iu;
const WHOLE = /(?<![a-z])(equal|exactly|in full|100 ?%|10,?000)(?![a-z])|恰好|等于|10000|一万|百分之百|全部|全额/iu;
const PERCENT = /(\d+(?:\.\d+)?)\s*(?:%|％|percent|per cent)/giu;
const EACH_OF = /(?<![a-z])(each|apiece)(?![a-z])|各/iu;
const COUNT_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, 两: 2, 二: 2, 三: 3, 四: 4, 五: 5 };
const COUNTED = /(?<![a-z])(two|three|four|five|[2-5])(?![a-z0-9%.])|([两二三四五])\s*[个名位家]/iu;

const statesWholeSum = (clause: string) => requirementsOf(clause).some((requirement) => SUM.test(requirement) && WHOLE.test(requirement));

function sharesNotWhole(_clause: string, sentence: string): KindDeparture | undefined {
  const shares = [...sentence.matchAll(PERCENT)].map((match) => ({ text: match[0], value: Number(match[1]) }));
  let total: number;
  let stated: string;
  if (shares.length >= 2) {
    total = shares.reduce((sum, share) => sum + share.value, 0);
    stated = shares.map((share) => share.text).join(' + ');
  } else if (shares.length === 1 && EACH_OF.test(sentence) && COUNTED.test(sentence)) {
    const counted = COUNTED.exec(sentence)!;
    const count = COUNT_WORDS[(counted[1] ?? counted[2])!.toLowerCase()] ?? Number(counted[1]);
    total = count * shares[0]!.value;
    stated = `${count} × ${shares[0]!.text}`;
  } else return undefined;
  if (Math.abs(total - 100) < 1e-9) return undefined;
  return { stated: `${stated} = ${Number(total.toFixed(6))} %`, required: 'shares summing to the whole' };
}

/** A requirement of whole basis points or minor units (整数基点; no fractional basis points). */
const WHOLE_UNITS =
  /(?<![a-z])(integer|whole)(?![a-z])[^;；。]*(basis point|minor unit)|整数[^;；。]*(基点|最小货币单位)|(basis point|基点)[^;；。]*(integer|整数)/iu;

function fractionOfBasisPoint(_clause: string, sentence: string): KindDeparture | undefined {
  for (const match of sentence.matchAll(PERCENT)) {
    const basisPoints = Number(match[1]) * 100;
    if (Math.abs(basisPoints - Math.round(basisPoints)) > 1e-6) {
      return { stated: `${match[0]} (${Number(basisPoints.toFixed(6))} basis points)`, required: 'whole basis points' };
    }
  }
  return undefined;
}

// --- Currencies -----------------------------------------------------------------------------------------------

/** A requirement about currencies being one, or converted before they meet. */
const ONE_CURRENCY =
  /currenc[^;；。]*(?<![a-z])(one|single|convert\w*|conversion|different)(?![a-z])|(one|single|different)[^;；。]*currenc|币种[^;；。]*(一个|唯一|换算|不同)|(一个|唯一|换算|不同)[^;；。]*币种/iu;
const CURRENCIES: [string, RegExp][] = [
  ['USD', /(?<![a-z])(usd|us dollars?|dollars?)(?![a-z])|美元|美金/iu],
  ['EUR', /(?<![a-z])(eur|euros?)(?![a-z])|欧元/iu],
  ['JPY', /(?<![a-z])(jpy|yen)(?![a-z])|日元/iu],
  ['CNY', /(?<![a-z])(cny|rmb|renminbi|yuan)(?![a-z])|人民币/iu],
  ['GBP', /(?<![a-z])(gbp|pounds? sterling|sterling)(?![a-z])|英镑/iu],
  ['HKD', /(?<![a-z])(hkd)(?![a-z])|港币|港元/iu],
  ['CHF', /(?<![a-z])(chf|swiss francs?)(?![a-z])|瑞士法郎/iu],
];
const CONVERSION =
  /(?<![a-z])(convert\w*|conversion|exchange rate|fx rate|rate)(?![a-z])|(?<!省得|免得|不用|不必)(换算|兑换|汇率|折算|换成|折合)/iu;

function currenciesUnconverted(_clause: string, sentence: string): KindDeparture | undefined {
  if (CONVERSION.test(sentence)) return undefined;
  const named = CURRENCIES.flatMap(([, pattern]) => {
    const match = pattern.exec(sentence);
    return match ? [match[0]] : [];
  });
  if (named.length < 2) return undefined;
  return { stated: `${named.join(' and ')} without conversion`, required: 'one currency, or conversion first' };
}

// --- Order ----------------------------------------------------------------------------------------------------

/** What a text puts first and what after: the thing after "after" or before 之后 came first. */
interface Order {
  earlier: string[];
  later: string[];
}

const LATIN_ORDER = /(?<![a-z])(after|before|prior to|then|first)(?![a-z])/giu;
const CHINESE_ORDER =
  /(\p{Script=Han}{2})(?:之前|以前|之后|以后|后方可|后才)|先[把将]?(\p{Script=Han}{2})|(?:然后|再|还没|尚未|没等)[把将]?(\p{Script=Han}{2})/gu;

/** The orders of the texts read last: a report reads the same clauses, and each sentence against many clauses. */
const ordersByText = new Map<string, Order>();
const ORDERS_KEPT = 2048;

function orderOf(text: string): Order {
  let order = ordersByText.get(text);
  if (order === undefined) {
    if (ordersByText.size >= ORDERS_KEPT) ordersByText.clear();
    ordersByText.set(text, (order = readOrder(text)));
  }
  return order;
}

function readOrder(text: string): Order {
  const order: Order = { earlier: [], later: [] };
  if (isChinese(text)) {
    for (const match of text.matchAll(CHINESE_ORDER)) {
      const [whole, marked, first, afterwards] = match;
      if (first) order.earlier.push(first);
      else if (afterwards) order.later.push(afterwards);
      else if (/之前|以前/u.test(whole)) order.later.push(marked!);
      else order.earlier.push(marked!);
    }
  } else {
    for (const match of text.matchAll(LATIN_ORDER)) {
      const word = match[1]!.toLowerCase();
      if (word === 'first') {
        // "X first, then Y": the naming words before it came first.
        if (/^\W*(?:\w+\W+){0,2}then(?![a-z])/iu.test(text.slice(match.index + match[0].length))) {
          order.earlier.push(...namingWords(piecesBefore(text, match.index, 4).join(' ')));
        }
        continue;
      }
      const next = namingWords(
        text
          .slice(match.index + match[0].length)
          .split(/\s+/, 4)
          .join(' '),
      );
      (word === 'after' ? order.earlier : order.later).push(...next);
    }
  }
  return order;
}

/**
 * The last `count` pieces of `text.slice(0, end).split(/\s+/)`, found from `end` back: splitting the whole
 * text before each order word made a sentence of many of them quadratic.
 */
export function piecesBefore(text: string, end: number, count: number): string[] {
  const pieces: string[] = [];
  let start = end;
  while (pieces.length < count) {
    const stop = start;
    while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
    pieces.unshift(text.slice(start, stop));
    if (start === 0) break;
    while (start > 0 && /\s/.test(text[start - 1]!)) start--;
  }
  return pieces;
}

function orderReversed(clause: string, sentence: string): KindDeparture | undefined {
  const required = orderOf(clause);
  const stated = orderOf(sentence);
  const first = required.earlier.find((thing) => namesAny(stated.later, [thing]));
  if (first !== undefined) return { stated: `${first} done later`, required: `${first} first` };
  const last = required.later.find((thing) => namesAny(stated.earlier, [thing]));
  if (last !== undefined) return { stated: `${last} done first`, required: `${last} later` };
  return undefined;
}

// --- Dates: a start before the signing ------------------------------------------------------------------------

/** A requirement that a change take effect only ahead, never reaching back. */
const FORWARD_ONLY = /retroactiv\w*|not yet (?:begun|started)|has not (?:yet )?begun|追溯|尚未开始|未开始/iu;
const MONTHS = 'january february march april may june july august september october november december'.split(' ');
const DATE =
  /(\d{1,2})月(\d{1,2})[日号]|(?<![a-z])(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(january|february|march|april|may|june|july|august|september|october|november|december)|(?<![a-z0-9])(?:the\s+)?(\d{1,2})(st|nd|rd|th)(?![a-z])/giu;
const SIGNED = /(?<![a-z])(signed|approved|agreed|adopted|concluded)(?![a-z])|签|批准|审批|通过/iu;
const STARTED = /(?<![a-z])(from|starting|effective|as of|since|applied|backdated to)(?![a-z])|起|开始|生效/iu;

interface StatedDate {
  text: string;
  day: number;
  index: number;
}

function datesOf(sentence: string): StatedDate[] {
  let month = 0;
  return [...sentence.matchAll(DATE)].map((match) => {
    const [whole, zhMonth, zhDay, enMonth, enDay, dayFirst, monthAfter, bareDay] = match;
    const monthName = (enMonth ?? monthAfter)?.toLowerCase();
    if (zhMonth) month = Number(zhMonth);
    else if (monthName) month = MONTHS.indexOf(monthName) + 1;
    const day = Number(zhDay ?? enDay ?? dayFirst ?? bareDay);
    return { text: whole.trim(), day: month * 100 + day, index: match.index };
  });
}

/** The part of a sentence (between commas) a date is in. */
function partAround(sentence: string, index: number): string {
  const start = Math.max(...[',', '，', ';', '；'].map((mark) => sentence.lastIndexOf(mark, index)));
  const ends = [',', '，', ';', '；'].map((mark) => sentence.indexOf(mark, index)).filter((end) => end >= 0);
  return sentence.slice(start + 1, ends.length > 0 ? Math.min(...ends) : sentence.length);
}

function startBeforeSigning(_clause: string, sentence: string): KindDeparture | undefined {
  const dates = datesOf(sentence);
  const signed = dates.filter((date) => SIGNED.test(partAround(sentence, date.index)));
  const started = dates.filter((date) => !signed.includes(date) && STARTED.test(partAround(sentence, date.index)));
  for (const start of started) {
    const signing = signed.find((date) => date.day > start.day);
    if (signing) return { stated: `a start on ${start.text} before the signing on ${signing.text}`, required: 'no effect before approval' };
  }
  return undefined;
}

// --- Periods that must not overlap ----------------------------------------------------------------------------

const NO_OVERLAP = /overlap|重叠|重合|交叉/iu;
const DAY = String.raw`(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?[日号]?`;
const RANGE = new RegExp(
  String.raw`${DAY}\s*(?:to|through|until|till|-|–|到|至)\s*(?:${DAY}|(month[- ]end|the end of the month|月底|月末))`,
  'giu',
);

function overlappingRanges(_clause: string, sentence: string): KindDeparture | undefined {
  const ranges = [...sentence.matchAll(RANGE)].map((match) => ({
    text: match[0].trim(),
    first: Number(match[1]),
    last: match[2] ? Number(match[2]) : 31,
  }));
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      const [a, b] = [ranges[i]!, ranges[j]!];
      if (a.first <= a.last && b.first <= b.last && a.first <= b.last && b.first <= a.last) {
        return { stated: `${a.text} and ${b.text} overlapping`, required: 'periods that do not overlap' };
      }
    }
  }
  return undefined;
}

// --- One rule for a whole period, a duty recurring within one -------------------------------------------------

/** A requirement that one thing holds for a whole period, from its start (exactly one rule version governs each period). */
const WHOLE_PERIOD =
  /(?<![a-z])(exactly one|only one|start of a)(?![a-z])[^;；。]*period|(?<![a-z])period[^;；。]*(?<![a-z])exactly one(?![a-z])|只能由一个|周期起始/iu;
/** Words of a sentence saying a period is cut in parts (the first two weeks, the rest of the month, 各管半个月). */
const PART_OF_PERIOD =
  /(?<![a-z])((?:first|last|second) (?:two|three|\d+) (?:weeks|days)|the rest of the (?:month|quarter|period)|half (?:a|the|of the) (?:month|quarter|period)|mid-?(?:month|quarter|period)|midway through)(?![a-z])|半个月|上半月|下半月|月中|(?<!提)前两周|后两周|剩下的日子/iu;

function periodCut(_clause: string, sentence: string): KindDeparture | undefined {
  const part = PART_OF_PERIOD.exec(sentence);
  return part ? { stated: `"${part[0]}"`, required: 'one rule for the whole period, from its start' } : undefined;
}

/** A duty a clause makes recur at least every so many days (at least quarterly, 至少每个日历年). */
const RECURRENCE: [RegExp, number][] = [
  [/at least (?:monthly|once a month|every month)|至少每(?:个)?月/iu, 31],
  [/at least (?:quarterly|once a quarter|every quarter)|至少每(?:个)?季度/iu, 92],
  [/at least (?:annually|yearly|once a (?:calendar )?year|every (?:calendar )?year)|至少每(?:个)?(?:日历)?年/iu, 366],
];
const ELAPSED_NUMBER: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
};
/** How long ago a sentence says a thing was last done (two years ago, since we launched three years ago, 前年, 两年前). */
const ELAPSED =
  /(?<![a-z])(\d+|a|an|one|two|three|four|five|six) (years?|months?|quarters?) ago(?![a-z])|(\d+|[两二三四五])(年|个月)(?:前|以前)|(大前年|前年)/iu;

function elapsedDays(sentence: string): { text: string; days: number } | undefined {
  const match = ELAPSED.exec(sentence);
  if (!match) return undefined;
  const [whole, count, unit, zhCount, zhUnit, zhYear] = match;
  if (zhYear) return { text: whole, days: zhYear === '大前年' ? 3 * 365 : 2 * 365 };
  const number = ELAPSED_NUMBER[(count ?? zhCount)!.toLowerCase()] ?? Number(count ?? zhCount);
  const unitDays = /^year|年/iu.test((unit ?? zhUnit)!) ? 365 : /^quarter/iu.test((unit ?? zhUnit)!) ? 91 : 30;
  return { text: whole, days: number * unitDays };
}

const recurrenceOf = (clause: string) => RECURRENCE.find(([pattern]) => pattern.test(clause));

function recurrenceOverdue(clause: string, sentence: string): KindDeparture | undefined {
  const recurrence = recurrenceOf(clause);
  if (!recurrence) return undefined;
  const elapsed = elapsedDays(sentence);
  if (!elapsed || elapsed.days <= recurrence[1]) return undefined;
  return { stated: `last done "${elapsed.text}"`, required: `at least every ${recurrence[1]} days` };
}

// ---------------------------------------------------------------------------------------------------------------

/** A kind of requirement: whether a clause's text states it, and how a sentence departs from it. */
interface KindCheck {
  kind: string;
  statedBy: (clause: string) => boolean;
  departure: (clause: string, sentence: string) => KindDeparture | undefined;
}
/**
 * The kinds read from two figures of one kind set against each other (a start date before a signing date, two
 * day ranges): precise enough to read in any sentence of the practice, which may not rank the clause among its own.
 */
export const PAIRED_FIGURE_CHECKS: KindCheck[] = [
  { kind: 'dates', statedBy: (clause) => FORWARD_ONLY.test(clause), departure: startBeforeSigning },
  { kind: 'overlap', statedBy: (clause) => NO_OVERLAP.test(clause), departure: overlappingRanges },
];
/** The kinds read only in a sentence about the clause: percentages and currencies are named in many sentences about other things. */
export const KIND_CHECKS: KindCheck[] = [
  { kind: 'sum', statedBy: statesWholeSum, departure: sharesNotWhole },
  { kind: 'whole-units', statedBy: (clause) => WHOLE_UNITS.test(clause), departure: fractionOfBasisPoint },
  { kind: 'currency', statedBy: (clause) => ONE_CURRENCY.test(clause), departure: currenciesUnconverted },
  ...PAIRED_FIGURE_CHECKS,
  { kind: 'order', statedBy: (clause) => orderOf(clause).earlier.length + orderOf(clause).later.length > 0, departure: orderReversed },
  { kind: 'period-cut', statedBy: (clause) => WHOLE_PERIOD.test(clause), departure: periodCut },
];
const RECURRENCE_CHECK: KindCheck = {
  kind: 'recurrence',
  statedBy: (clause) => recurrenceOf(clause) !== undefined,
  departure: recurrenceOverdue,
};

/** The kinds each clause text read last states: a report reads the same few dozen clauses against every sentence. */
const kindsByClause = new Map<string, ReadonlySet<KindCheck>>();
const KINDS_KEPT = 4096;

function kindsStatedBy(clause: string): ReadonlySet<KindCheck> {
  let kinds = kindsByClause.get(clause);
  if (kinds === undefined) {
    if (kindsByClause.size >= KINDS_KEPT) kindsByClause.clear();
    kinds = new Set([...KIND_CHECKS, RECURRENCE_CHECK].filter((check) => check.statedBy(clause)));
    kindsByClause.set(clause, kinds);
  }
  return kinds;
}

/**
 * What the sentence states against the kind of requirement the clause states (in the sentence's language), or
 * undefined: a sentence that negates or makes a case (if two tiers share an id, the rule is refused) states none.
 */
export function kindDeparture(clause: Localized, sentence: string, checks: KindCheck[] = KIND_CHECKS): KindDeparture | undefined {
  const text = clauseTextFor(clause, sentence);
  const stated = kindsStatedBy(text);
  if (stated.size === 0 || CONDITIONAL.test(sentence)) return undefined;
  // In a sentence about the clause only. "Nobody has reviewed it since two years ago": a negation says the recurring
  // duty lapsed, as the time does, so this kind is read before negated sentences are left out.
  if (checks === KIND_CHECKS && stated.has(RECURRENCE_CHECK)) {
    const overdue = recurrenceOverdue(text, sentence);
    if (overdue) return overdue;
  }
  if (NEGATION.test(sentence.replace(NOT_YET, ' '))) return undefined;
  for (const check of checks) {
    if (!stated.has(check)) continue;
    const departure = check.departure(text, sentence);
    if (departure) return departure;
  }
  return undefined;
}
