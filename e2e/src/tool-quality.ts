// The free-text tools measured on the labelled cases of tools/eval/cases: recall@k, MRR, empty answers and
// forbidden coverage claims per tool and language, the Markdown of docs/tool-quality.md and its floors.
// Plain TypeScript that Node runs as is (types stripped), so `npm run eval:tools` and a jest spec share it.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type Language = 'en' | 'zh-Hans';
/**
 * Which part of the independent cases a case is in: tuned on (`dev`), measured to keep or drop a method before
 * test is read (`check`, written later by another author, figures only), or measured once a method is kept (`test`).
 */
export type Part = 'dev' | 'check' | 'test';

interface AlignmentCase {
  id: string;
  lang: Language;
  part?: Part;
  practice: string;
  relevant: string[];
  violates: string[];
}
interface TermCase {
  id: string;
  lang: Language;
  part?: Part;
  text: string;
  expected: string[];
}
interface RoleCase {
  id: string;
  lang: Language;
  part?: Part;
  description: string;
  expected: string;
}

export interface EvalCases {
  alignment: AlignmentCase[];
  terms: TermCase[];
  roles: RoleCase[];
}

/** Calls one tool through the gateway; its structured content, or null when the call failed. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown> | null>;

/** One figure of one tool in one language (or `all`). */
export interface Figure {
  tool: string;
  lang: Language | 'all';
  metric: string;
  value: number;
}

export interface EvalRun {
  figures: Figure[];
  /** Case ids that missed (nothing expected in the top 5, or a forbidden claim), for reading, not for tuning. */
  misses: string[];
}

const CASES_DIR = path.join(import.meta.dirname, '../../tools/eval/cases');
/** Cases written by someone who had not read the matching code (issue 28), each with its part. */
export const INDEPENDENT_CASES_DIR = path.join(CASES_DIR, 'independent');
/** Cases written the same way by a second author, after seven rounds of tuning on `dev`: the `check` part. */
export const CHECK_CASES_DIR = path.join(CASES_DIR, 'check');
export const CASE_FILES = ['alignment.json', 'terms.json', 'roles.json'] as const;

export function loadCases(directory = CASES_DIR): EvalCases {
  const read = <T>(file: string): T[] => (JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as { cases: T[] }).cases;
  return { alignment: read('alignment.json'), terms: read('terms.json'), roles: read('roles.json') };
}

/** One part of the independent cases, or null before they are in the repository. */
export function loadPart(part: Part, directory = part === 'check' ? CHECK_CASES_DIR : INDEPENDENT_CASES_DIR): EvalCases | null {
  if (!CASE_FILES.every((file) => existsSync(path.join(directory, file)))) return null;
  const all = loadCases(directory);
  const of = <T extends { part?: Part }>(cases: T[]): T[] => cases.filter((c) => c.part === part);
  return { alignment: of(all.alignment), terms: of(all.terms), roles: of(all.roles) };
}

/**
 * The cases, each marked `dev` or `test`, split once by a seed: within each language the cases are ordered by
 * the SHA-256 of the seed and their id, and the first half (rounded up) is `dev`. The order is the ids'
 * alone, so the split does not depend on the order the cases were written in, and each language is halved.
 */
export function splitBySeed<T extends { id: string; lang: Language }>(cases: T[], seed: string): (T & { part: Part })[] {
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`case id ${c.id} appears twice`);
    ids.add(c.id);
  }
  const dev = new Set<string>();
  for (const lang of new Set(cases.map((c) => c.lang))) {
    const ordered = cases
      .filter((c) => c.lang === lang)
      .map((c) => ({ id: c.id, key: createHash('sha256').update(`${seed}\0${c.id}`).digest('hex') }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { id } of ordered.slice(0, Math.ceil(ordered.length / 2))) dev.add(id);
  }
  return cases.map((c) => ({ ...c, part: dev.has(c.id) ? 'dev' : 'test' }));
}

/** 1-based rank of the first of `expected` in `ranked`, or null. */
function firstRank(ranked: string[], expected: string[]): number | null {
  const index = ranked.findIndex((id) => expected.includes(id));
  return index < 0 ? null : index + 1;
}

const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);

/** What the report says of each clause, read from either output shape (before: coveredClauses; after: clauses with a status). */
function clauseClaims(standard: Record<string, unknown>): Map<string, string> {
  const sectionId = String(standard['citation']).split('@')[0];
  const claims = new Map<string, string>();
  if (Array.isArray(standard['clauses'])) {
    for (const clause of standard['clauses'] as { clauseId: string; status: string }[])
      claims.set(`${sectionId}#${clause.clauseId}`, clause.status);
  }
  if (Array.isArray(standard['coveredClauses'])) {
    for (const clauseId of standard['coveredClauses'] as string[]) claims.set(`${sectionId}#${clauseId}`, 'covered');
  }
  return claims;
}

const CLAIMS_OF_COVERAGE = new Set(['covered', 'addressed']);

export async function runEval(cases: EvalCases, call: CallTool): Promise<EvalRun> {
  const figures: Figure[] = [];
  const misses: string[] = [];
  const languages: Language[] = ['en', 'zh-Hans'];

  const alignment = [];
  for (const c of cases.alignment) {
    const output = await call('draft_alignment_report', { practice: c.practice, maxStandards: 5 });
    const standards = (output?.['standards'] as Record<string, unknown>[] | undefined) ?? [];
    const ranked = standards.map((s) => String(s['citation']).split('@')[0]!);
    const claims = new Map<string, string>();
    for (const standard of standards) for (const [clause, status] of clauseClaims(standard)) claims.set(clause, status);
    const recallAt = (k: number) => c.relevant.filter((id) => ranked.slice(0, k).includes(id)).length / c.relevant.length;
    const rank = firstRank(ranked, c.relevant);
    const forbidden = c.violates.filter((clause) => CLAIMS_OF_COVERAGE.has(claims.get(clause) ?? '')).length;
    const atRisk = c.violates.filter((clause) => claims.get(clause) === 'at_risk').length;
    const alarms = c.violates.length === 0 ? [...claims.values()].filter((status) => status === 'at_risk').length : 0;
    if (recallAt(5) < 1 || forbidden > 0) misses.push(c.id);
    alignment.push({
      lang: c.lang,
      r1: recallAt(1),
      r3: recallAt(3),
      r5: recallAt(5),
      rr: rank ? 1 / rank : 0,
      forbidden,
      atRisk,
      alarms,
      clean: c.violates.length === 0 ? 1 : 0,
      violated: c.violates.length,
    });
  }
  const terms = [];
  for (const c of cases.terms) {
    const output = await call('resolve_term', { text: c.text, limit: 5 });
    const ranked = ((output?.['matches'] as { termId: string }[] | undefined) ?? []).map((m) => m.termId);
    const rank = firstRank(ranked, c.expected);
    if (!rank) misses.push(c.id);
    terms.push({ lang: c.lang, rank, empty: ranked.length === 0 });
  }
  const roles = [];
  for (const c of cases.roles) {
    const output = await call('recommend_role', { description: c.description, limit: 5 });
    const ranked = ((output?.['roles'] as { role: string }[] | undefined) ?? []).map((r) => r.role);
    const rank = firstRank(ranked, [c.expected]);
    if (rank !== 1) misses.push(c.id);
    roles.push({ lang: c.lang, rank });
  }

  for (const lang of [...languages, 'all'] as const) {
    const pick = <T extends { lang: Language }>(rows: T[]) => rows.filter((row) => lang === 'all' || row.lang === lang);
    const a = pick(alignment);
    const violated = a.reduce((sum, row) => sum + row.violated, 0);
    figures.push(
      { tool: 'draft_alignment_report', lang, metric: 'cases', value: a.length },
      { tool: 'draft_alignment_report', lang, metric: 'recall@1', value: mean(a.map((row) => row.r1)) },
      { tool: 'draft_alignment_report', lang, metric: 'recall@3', value: mean(a.map((row) => row.r3)) },
      { tool: 'draft_alignment_report', lang, metric: 'recall@5', value: mean(a.map((row) => row.r5)) },
      { tool: 'draft_alignment_report', lang, metric: 'MRR', value: mean(a.map((row) => row.rr)) },
      { tool: 'draft_alignment_report', lang, metric: 'violated clauses', value: violated },
      { tool: 'draft_alignment_report', lang, metric: 'forbidden coverage claims', value: a.reduce((sum, row) => sum + row.forbidden, 0) },
      {
        tool: 'draft_alignment_report',
        lang,
        metric: 'violated clauses at_risk',
        value: violated === 0 ? 0 : a.reduce((sum, row) => sum + row.atRisk, 0) / violated,
      },
      { tool: 'draft_alignment_report', lang, metric: 'practices violating nothing', value: a.reduce((sum, row) => sum + row.clean, 0) },
      {
        tool: 'draft_alignment_report',
        lang,
        metric: 'at_risk claims in them',
        value: a.reduce((sum, row) => sum + row.alarms, 0),
      },
    );
    for (const [tool, rows] of [
      ['resolve_term', pick(terms)],
      ['recommend_role', pick(roles)],
    ] as const) {
      const hitAt = (k: number) => mean(rows.map((row) => (row.rank !== null && row.rank <= k ? 1 : 0)));
      figures.push(
        { tool, lang, metric: 'cases', value: rows.length },
        { tool, lang, metric: 'recall@1', value: hitAt(1) },
        { tool, lang, metric: 'recall@3', value: hitAt(3) },
        { tool, lang, metric: 'recall@5', value: hitAt(5) },
        { tool, lang, metric: 'MRR', value: mean(rows.map((row) => (row.rank ? 1 / row.rank : 0))) },
      );
      if (tool === 'resolve_term') {
        figures.push({ tool, lang, metric: 'empty answers', value: (rows as typeof terms).filter((row) => row.empty).length });
      }
    }
  }
  return { figures, misses };
}

const COUNTS = new Set([
  'cases',
  'violated clauses',
  'forbidden coverage claims',
  'practices violating nothing',
  'at_risk claims in them',
  'empty answers',
]);

function formatValue(metric: string, value: number): string {
  return COUNTS.has(metric) ? String(value) : value.toFixed(2);
}

/** One table: a row per tool and metric, a column per language. */
export function figuresTable(figures: Figure[]): string {
  const rows = new Map<string, Map<string, number>>();
  for (const f of figures) {
    const key = `${f.tool}|${f.metric}`;
    if (!rows.has(key)) rows.set(key, new Map());
    rows.get(key)!.set(f.lang, f.value);
  }
  const lines = ['| tool | metric | en | zh-Hans | all |', '|---|---|---:|---:|---:|'];
  for (const [key, values] of rows) {
    const [tool, metric] = key.split('|') as [string, string];
    lines.push(
      `| ${tool} | ${metric} | ${['en', 'zh-Hans', 'all'].map((lang) => formatValue(metric, values.get(lang) ?? 0)).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** A floor of docs/tool-quality.md: `| tool | language | metric | min or max | value |` rows between the floor markers. */
export interface Floor {
  tool: string;
  lang: Language | 'all';
  metric: string;
  bound: 'min' | 'max';
  value: number;
}

export function parseFloors(markdown: string): Floor[] {
  const section = markdown.split('<!-- floors:start -->')[1]?.split('<!-- floors:end -->')[0] ?? '';
  return section
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length === 7 && (cells[4] === 'min' || cells[4] === 'max'))
    .map((cells) => ({
      tool: cells[1]!,
      lang: cells[2] as Floor['lang'],
      metric: cells[3]!,
      bound: cells[4] as Floor['bound'],
      value: Number(cells[5]),
    }));
}

/** Every floor the figures break, said as a sentence; none when all hold. */
export function brokenFloors(figures: Figure[], floors: Floor[]): string[] {
  return floors.flatMap((floor) => {
    const figure = figures.find((f) => f.tool === floor.tool && f.lang === floor.lang && f.metric === floor.metric);
    if (!figure) return [`${floor.tool} ${floor.lang} ${floor.metric}: not measured`];
    const broken = floor.bound === 'min' ? figure.value < floor.value - 1e-9 : figure.value > floor.value + 1e-9;
    return broken
      ? [`${floor.tool} ${floor.lang} ${floor.metric}: ${formatValue(floor.metric, figure.value)} (${floor.bound} ${floor.value})`]
      : [];
  });
}

const HISTORY_COLUMNS: [string, string][] = [
  ['draft_alignment_report', 'recall@5'],
  ['draft_alignment_report', 'MRR'],
  ['draft_alignment_report', 'forbidden coverage claims'],
  ['draft_alignment_report', 'violated clauses at_risk'],
  ['resolve_term', 'recall@5'],
  ['resolve_term', 'empty answers'],
  ['recommend_role', 'recall@1'],
];

/** A row of the test figures' history: the date, the commit, and the headline figures of both languages together. */
export function historyRow(date: string, commit: string, figures: Figure[]): string {
  const value = ([tool, metric]: [string, string]) => {
    const figure = figures.find((f) => f.tool === tool && f.metric === metric && f.lang === 'all');
    return figure ? formatValue(metric, figure.value) : '-';
  };
  return `| ${date} | ${commit} | ${HISTORY_COLUMNS.map(value).join(' | ')} |`;
}

/**
 * The history table between `<!-- test-history:start -->` and `<!-- test-history:end -->` with a row for the
 * commit: it replaces the last row when that one is of the same commit (a re-run), else it is added below.
 */
export function withHistoryRow(markdown: string, row: string): string {
  const start = '<!-- test-history:start -->';
  const end = '<!-- test-history:end -->';
  const [before, rest] = markdown.split(start);
  const [table, after] = rest?.split(end) ?? [];
  if (before === undefined || table === undefined || after === undefined)
    throw new Error('docs/tool-quality.md has no test-history section');
  const lines = table.split('\n').filter((line) => line.trim().length > 0);
  const commitOf = (line: string) => line.split('|')[2]?.trim();
  const last = lines.at(-1);
  if (last && /^\|\s*\d{4}-/.test(last) && commitOf(last) === commitOf(row)) lines.pop();
  return `${before}${start}\n${[...lines, row].join('\n')}\n${end}${after}`;
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(markdown: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const [before, rest] = markdown.split(start);
  const after = rest?.split(end)[1];
  if (before === undefined || after === undefined) throw new Error(`docs/tool-quality.md has no ${name} section`);
  return `${before}${start}\n${content}\n${end}${after}`;
}

/** What a case's labels may name: the standards' current clauses, the term ids and the role ids of a content pack. */
export interface CaseLabels {
  clausesBySection: Map<string, Set<string>>;
  termIds: Set<string>;
  roleIds: Set<string>;
}

/** The labels a content pack offers: its current standards' clauses, its term ids, its role ids. */
export function packLabels(directory: string): CaseLabels {
  const read = <T>(file: string): T[] => JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as T[];
  const standards = read<{ sectionId: string; status: string; clauses: { clauseId: string }[] }>('standards.json');
  return {
    clausesBySection: new Map(
      standards.filter((s) => s.status === 'current').map((s) => [s.sectionId, new Set(s.clauses.map((c) => c.clauseId))]),
    ),
    termIds: new Set(read<{ termId: string }>('terms.json').map((t) => t.termId)),
    roleIds: new Set(read<{ role: string }>('roles.json').map((r) => r.role)),
  };
}

/** Every label of the cases that names nothing in the pack, and every id used twice, as readable lines. */
export function caseLabelErrors(cases: EvalCases, labels: CaseLabels): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const { id } of [...cases.alignment, ...cases.terms, ...cases.roles]) {
    if (seen.has(id)) errors.push(`${id}: the id appears twice`);
    seen.add(id);
  }
  for (const c of cases.alignment) {
    for (const section of c.relevant) if (!labels.clausesBySection.has(section)) errors.push(`${c.id}: no standard ${section}`);
    for (const clause of c.violates) {
      const [section = '', clauseId = ''] = clause.split('#');
      if (!labels.clausesBySection.get(section)?.has(clauseId)) errors.push(`${c.id}: no current clause ${clause}`);
    }
  }
  for (const c of cases.terms) for (const term of c.expected) if (!labels.termIds.has(term)) errors.push(`${c.id}: no term ${term}`);
  for (const c of cases.roles) if (!labels.roleIds.has(c.expected)) errors.push(`${c.id}: no role ${c.expected}`);
  return errors;
}
