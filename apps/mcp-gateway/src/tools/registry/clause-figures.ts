// The figures a clause sets (within 5 working days, at least 14 days before, 90 天内) read against the figures a
// sentence of the practice states: a statement counts only with the clause's figures, and a sentence whose
// duration falls outside the clause's bound (notice two days before where the clause asks 14, kept for a year
// where it asks 3) departs from the clause in words no condition phrase foresees.
import type { Localized } from '@stdreg/contracts';
import { clauseTextFor } from './clause-language';

const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  fourteen: '14',
  fifteen: '15',
  twenty: '20',
  thirty: '30',
  ninety: '90',
  一: '1',
  两: '2',
  二: '2',
  三: '3',
  四: '4',
  五: '5',
  六: '6',
  七: '7',
  八: '8',
  九: '9',
  十: '10',
  十四: '14',
  三十: '30',
  九十: '90',
};
/** A figure with its unit (5 working days, 14 days, 3 years, 90 天): a limit a clause sets. */
const FIGURE =
  /(\d+(?:\.\d+)?)\s*(working days?|business days?|days?|weeks?|months?|years?|hours?|%|percent|basis points?|decimal places?|个工作日|工作日|天|周|个月|月|年|小时|个基点|基点|位小数)/giu;
const NUMBER = new RegExp(
  `\\d+(?:\\.\\d+)?|${Object.keys(NUMBER_WORDS)
    .sort((a, b) => b.length - a.length)
    .join('|')}`,
  'giu',
);

/** The figures of a clause's limits in the sentence's language that the sentence does not state. */
export function figuresNotStated(clause: Localized, sentence: string): string[] {
  const stated = new Set([...sentence.matchAll(NUMBER)].map(([n]) => NUMBER_WORDS[n.toLowerCase()] ?? n));
  return [...clauseTextFor(clause, sentence).matchAll(FIGURE)].filter(([, n]) => !stated.has(n!)).map(([figure]) => figure);
}

/** Days in one of a unit of time (a working day counted as the 7/5 of a day it spans in a week). */
const UNIT_DAYS: [RegExp, number][] = [
  [/^(hours?|小时|个小时)$/u, 1 / 24],
  [/^(working days?|business days?|个工作日|工作日)$/u, 7 / 5],
  [/^(days?|天|日)$/u, 1],
  [/^(weeks?|周|个星期|星期)$/u, 7],
  [/^(months?|个月|月)$/u, 30],
  [/^(years?|年)$/u, 365],
  [/^(decades?)$/u, 3650],
];
const NUMBER_PATTERN = String.raw`\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|ninety|[一两二三四五六七八九十]+`;
const UNIT_PATTERN = String.raw`working days?|business days?|days?|weeks?|months?|years?|decades?|hours?|个工作日|工作日|个小时|小时|个星期|星期|个月|天|周|年`;
/** A duration, or a range of them (two or three days, a week or two, 2-3 周, 一到两年). */
const DURATION = new RegExp(
  String.raw`(?<![a-z0-9])(${NUMBER_PATTERN})(?:\s*(?:or|to|-|–|到|至|或|、)\s*(${NUMBER_PATTERN}))?\s*(${UNIT_PATTERN})(?:\s*or\s*(${NUMBER_PATTERN})\b)?`,
  'giu',
);
/** Words before a clause's figure that make it a least bound (at least 14 days before, 至少保留10年). */
const AT_LEAST = /((at least|no less than|not less than|no fewer than|a minimum of|minimum)\s*|(至少|不少于|不低于)\p{Script=Han}{0,3})$/iu;
/** Words around a clause's figure that make it a most bound (within 5 working days, no later than 90 days, 7 天内). */
const AT_MOST_BEFORE = /(within|no later than|not later than|no more than|not more than|at most|up to|不超过|不得超过|不超出)\s*$/iu;
const AT_MOST_AFTER = /^\s*(内|以内|之内)/u;

function chineseNumber(text: string): number | undefined {
  const digit = (character: string | undefined) => (character === undefined ? undefined : Number(NUMBER_WORDS[character]));
  if (!/^[一两二三四五六七八九十]+$/u.test(text)) return undefined;
  const ten = text.indexOf('十');
  if (ten < 0) return text.length === 1 ? digit(text) : undefined;
  return (ten === 0 ? 1 : (digit(text[0]) ?? 0)) * 10 + (ten === text.length - 1 ? 0 : (digit(text[ten + 1]) ?? 0));
}

function numberOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (/^\d/.test(lower)) return Number(lower);
  if (lower === 'a' || lower === 'an') return 1;
  return chineseNumber(lower) ?? (NUMBER_WORDS[lower] === undefined ? undefined : Number(NUMBER_WORDS[lower]));
}

function daysIn(unit: string): number | undefined {
  return UNIT_DAYS.find(([pattern]) => pattern.test(unit.toLowerCase()))?.[1];
}

interface Duration {
  text: string;
  /** The shortest and the longest the words allow, in days. */
  least: number;
  most: number;
  index: number;
}

function durationsIn(text: string): Duration[] {
  return [...text.matchAll(DURATION)].flatMap((match) => {
    const [whole, first, second, unit, trailing] = match;
    const days = daysIn(unit!);
    const values = [first, second, trailing].flatMap((word) => (word === undefined ? [] : [numberOf(word)])).filter((n) => n !== undefined);
    if (days === undefined || values.length === 0) return [];
    return [{ text: whole.trim(), least: Math.min(...values) * days, most: Math.max(...values) * days, index: match.index }];
  });
}

interface Bound {
  text: string;
  days: number;
  kind: 'least' | 'most';
}

/** The bounds of the clause texts read last: a report reads the same clauses call after call. */
const boundsByText = new Map<string, Bound[]>();
const BOUNDS_KEPT = 2048;

/** The bounds a clause sets on durations, each with its kind: a figure with neither kind is no bound. */
function boundsOf(text: string): Bound[] {
  let bounds = boundsByText.get(text);
  if (bounds === undefined) {
    if (boundsByText.size >= BOUNDS_KEPT) boundsByText.clear();
    boundsByText.set(text, (bounds = readBounds(text)));
  }
  return bounds;
}

function readBounds(text: string): Bound[] {
  return durationsIn(text).flatMap((duration): Bound[] => {
    const before = text.slice(Math.max(0, duration.index - 24), duration.index);
    const after = text.slice(duration.index + duration.text.length);
    if (AT_LEAST.test(before)) return [{ text: duration.text, days: duration.least, kind: 'least' }];
    if (AT_MOST_BEFORE.test(before) || AT_MOST_AFTER.test(after)) return [{ text: duration.text, days: duration.most, kind: 'most' }];
    return [];
  });
}

/** A duration more than 12 times or less than a twelfth of every bound is about something else (since launch two years ago). */
const FARTHEST = Math.log(12);

/** A duration the sentence states outside the bound of the clause's it is nearest to, with that bound. */
export interface FigureDeparture {
  stated: string;
  bound: string;
}

/**
 * The first duration of the sentence outside a bound the clause sets (in the sentence's language): each is read
 * against the clause's bound nearest to it in size (a clause may bound a review by quarters and a removal by days).
 */
export function figureDeparture(clause: Localized, sentence: string): FigureDeparture | undefined {
  const bounds = boundsOf(clauseTextFor(clause, sentence));
  if (bounds.length === 0) return undefined;
  for (const duration of durationsIn(sentence)) {
    const distance = (bound: Bound) => Math.abs(Math.log(bound.days / Math.max(duration.most, 1 / 48)));
    const nearest = bounds.reduce((best, bound) => (distance(bound) < distance(best) ? bound : best));
    if (distance(nearest) > FARTHEST) continue;
    const outside = nearest.kind === 'least' ? duration.least < nearest.days : duration.most > nearest.days;
    if (outside) return { stated: duration.text, bound: `${nearest.kind === 'least' ? 'at least' : 'at most'} ${nearest.text}` };
  }
  return undefined;
}
