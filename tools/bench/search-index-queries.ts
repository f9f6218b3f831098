// The searches of search-index.bench.mjs: the registry's search index of a commit before (its
// standards-api sources, checked out by the bench) and of the working tree, each over the sample pack and
// a generated full-size pack, the same question asked of the four in turn (so the machine's load falls
// on all of them alike), and every answer of the two builds compared: a faster search that answers
// differently is a failure, not a figure.
import { compareVersions } from '@stdreg/contracts';
import { loadPack, type ContentPack } from '@stdreg/registry-content';

/** What the bench asks of an index, of either build (the ranking of terms changed shape between them). */
interface SearchIndex {
  searchTerms(query: string, limit: number): unknown[];
  rankTerms(query: string): { size?: number; hitAt(position: number): unknown };
  searchRoles(query: string, limit: number): unknown[];
  searchStandards(practice: string, limit: number): unknown[];
}
/**
 * What the bench builds an index with, of either build: the index class and the functions that turn a pack's
 * records into what it is built from (as standards-api does with the records it reads from the database).
 */
export interface IndexBuild {
  RegistrySearchIndex: { build(source: never): Promise<SearchIndex> };
  indexedStandard(block: never, versions: string[]): unknown;
  byKey<T>(key: (item: T) => string): (a: T, b: T) => number;
  termDto(term: never): unknown;
  roleDto(role: never): unknown;
  taskSpecDto(task: never): unknown;
}

/** The questions of scale-registry.mjs (passed in by search-index.bench.mjs), so both benches ask the same. */
export interface Questions {
  SAMPLE_TERM: { en: string; zh: string };
  ROLE_QUERY: string;
  ROLE_QUERY_ZH: string;
  PRACTICE: string;
  PRACTICE_ZH: string;
  /** scale-registry.mjs's new practices (two sample clauses), by language: one for each round and one for the warm-up. */
  FRESH_PRACTICES: { en: string[]; 'zh-Hans': string[] };
}
/** A page of `terms?q=` (50) and the hit after it, which tells whether a next page exists. */
const PAGE_HITS = 51;

interface Subject {
  size: 'sample' | 'full';
  build: 'before' | 'after';
  index: SearchIndex;
  namesEn: string[];
  namesZh: string[];
}

interface Search {
  name: string;
  rounds: number;
  ask: (subject: Subject, round: number) => unknown;
}

/** The first hits of a ranking of terms as plain data (either build's shape). */
function firstHits(ranking: { size?: number; hitAt(position: number): unknown }, count: number): unknown[] {
  const hits: unknown[] = [];
  for (let position = 0; position < Math.min(count, ranking.size ?? count); position++) {
    const hit = ranking.hitAt(position);
    if (hit === undefined) break;
    hits.push(hit);
  }
  return hits;
}

const spread = (names: string[], round: number, rounds: number) => names[Math.floor((round * names.length) / rounds) % names.length]!;

/** A question of the sample pack's own words for each round, never asked before by the bench (cold): two clauses' text. */
function newQuestions(sample: ContentPack) {
  const clauses = sample.standards.flatMap((block) => block.clauses);
  const clause = (k: number, lang: 'en' | 'zh-Hans') => clauses[k % clauses.length]!.text[lang];
  return {
    need: (round: number) => clause(round * 11 + 3, 'en'),
    practice: (round: number, lang: 'en' | 'zh-Hans') => `${clause(round * 7, lang)} ${clause(round * 13 + 5, lang)}`,
  };
}

function searches(
  rounds: number,
  { SAMPLE_TERM, ROLE_QUERY, ROLE_QUERY_ZH, PRACTICE, PRACTICE_ZH, FRESH_PRACTICES }: Questions,
  sample: ContentPack,
): Search[] {
  const few = Math.max(3, Math.ceil(rounds / 5));
  const fresh = newQuestions(sample);
  // The warm-up asks round `rounds`'s question, so no measured round repeats it.
  const nameOf = (names: string[], round: number) => names[(round * 7919 + 17) % names.length]!;
  return [
    { name: `POST /search in terms, "${SAMPLE_TERM.en}"`, rounds, ask: (s) => s.index.searchTerms(SAMPLE_TERM.en, 5) },
    { name: `POST /search in terms, "${SAMPLE_TERM.zh}"`, rounds, ask: (s) => s.index.searchTerms(SAMPLE_TERM.zh, 5) },
    { name: 'POST /search in terms, the last term name (en)', rounds, ask: (s) => s.index.searchTerms(s.namesEn.at(-1)!, 5) },
    { name: 'POST /search in terms, the last term name (zh-Hans)', rounds, ask: (s) => s.index.searchTerms(s.namesZh.at(-1)!, 5) },
    {
      name: '`terms?q=` a different term name each time (en), a page of 50',
      rounds,
      ask: (s, round) => firstHits(s.index.rankTerms(spread(s.namesEn, round, rounds)), PAGE_HITS),
    },
    {
      name: '`terms?q=` a different term name each time (zh-Hans), a page of 50',
      rounds,
      ask: (s, round) => firstHits(s.index.rankTerms(spread(s.namesZh, round, rounds)), PAGE_HITS),
    },
    {
      name: '`terms?q=` a term name (en), its 10th page of 50',
      rounds: few,
      ask: (s) => firstHits(s.index.rankTerms(s.namesEn.at(-1)!), 10 * 50 + 1).slice(9 * 50),
    },
    { name: 'POST /search in roles (en)', rounds, ask: (s) => s.index.searchRoles(ROLE_QUERY, 3) },
    { name: 'POST /search in roles (zh-Hans)', rounds, ask: (s) => s.index.searchRoles(ROLE_QUERY_ZH, 3) },
    { name: 'POST /search in standards, a practice (en)', rounds: few, ask: (s) => s.index.searchStandards(PRACTICE, 5) },
    { name: 'POST /search in standards, a practice (zh-Hans)', rounds: few, ask: (s) => s.index.searchStandards(PRACTICE_ZH, 5) },
    // Cold: a question no index was asked before, each round (its words may have been met in earlier ones).
    {
      name: 'cold: POST /search in terms, a new term name each ask (en)',
      rounds,
      ask: (s, r) => s.index.searchTerms(nameOf(s.namesEn, r), 5),
    },
    {
      name: 'cold: POST /search in terms, a new term name each ask (zh-Hans)',
      rounds,
      ask: (s, r) => s.index.searchTerms(nameOf(s.namesZh, r), 5),
    },
    {
      name: 'cold: POST /search in roles, a new need each ask (a clause, en)',
      rounds,
      ask: (s, r) => s.index.searchRoles(fresh.need(r), 3),
    },
    {
      name: 'cold: POST /search in standards, a new practice each ask (two clauses, en)',
      rounds: few,
      ask: (s, r) => s.index.searchStandards(fresh.practice(r, 'en'), 5),
    },
    {
      name: 'cold: POST /search in standards, a new practice each ask (two clauses, zh-Hans)',
      rounds: few,
      ask: (s, r) => s.index.searchStandards(fresh.practice(r, 'zh-Hans'), 5),
    },
    // The first ask of scale-registry.mjs's new practices, a different one each round (the warm-up asks the last).
    {
      name: "cold: POST /search in standards, scale-registry's new practice each ask (en)",
      rounds: few,
      ask: (s, r) => s.index.searchStandards(FRESH_PRACTICES.en[r % FRESH_PRACTICES.en.length]!, 5),
    },
    {
      name: "cold: POST /search in standards, scale-registry's new practice each ask (zh-Hans)",
      rounds: few,
      ask: (s, r) => s.index.searchStandards(FRESH_PRACTICES['zh-Hans'][r % FRESH_PRACTICES['zh-Hans'].length]!, 5),
    },
  ];
}

async function pack(directory: string): Promise<ContentPack> {
  const loaded = await loadPack(directory);
  if (!loaded.ok) throw new Error(`the pack in ${directory} does not load`);
  return loaded.pack;
}

/** A list as the one batch of a release's records. */
async function* inOneBatch<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}

/** The index of a pack's release, built as standards-api builds it: terms, tasks and roles in key order, each section's current block. */
export function buildIndex(Build: IndexBuild, pack: ContentPack): Promise<SearchIndex> {
  const sectionIds = [...new Set(pack.standards.map((b) => b.sectionId))].sort();
  const versionsOf = new Map<string, ContentPack['standards']>();
  for (const block of pack.standards) versionsOf.set(block.sectionId, [...(versionsOf.get(block.sectionId) ?? []), block]);
  const standards = sectionIds.map((sectionId) => {
    const blocks = versionsOf.get(sectionId)!.sort((a, b) => compareVersions(a.version, b.version));
    const current = blocks.find((b) => b.status === 'current') ?? blocks[blocks.length - 1]!;
    return Build.indexedStandard(
      current as never,
      blocks.map((b) => b.version),
    );
  });
  return Build.RegistrySearchIndex.build({
    terms: inOneBatch([...pack.terms].sort(Build.byKey((t: { termId: string }) => t.termId)).map((t) => Build.termDto(t as never))),
    standards: inOneBatch(standards),
    roles: [...pack.roles].sort(Build.byKey((r: { role: string }) => r.role)).map((r) => Build.roleDto(r as never)),
    tasks: inOneBatch([...pack.tasks].sort(Build.byKey((t: { taskCode: string }) => t.taskCode)).map((t) => Build.taskSpecDto(t as never))),
  } as never);
}

async function subject(Build: IndexBuild, loaded: ContentPack, size: Subject['size'], build: Subject['build']): Promise<Subject> {
  const started = performance.now();
  const index = await buildIndex(Build, loaded);
  process.stderr.write(`${size} ${build}: index built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const terms = [...loaded.terms].sort(Build.byKey((t: { termId: string }) => t.termId));
  return { size, build, index, namesEn: terms.map((t) => t.term.en), namesZh: terms.map((t) => t.term['zh-Hans']) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Prints one JSON line: each search's p50 in ms by size and build. */
export async function run({
  Before,
  After,
  samplePack,
  fullPack,
  rounds,
  questions,
  only,
}: {
  Before: IndexBuild;
  After: IndexBuild;
  samplePack: string;
  fullPack: string;
  rounds: number;
  questions: Questions;
  /** Only the searches whose name contains this text (all when absent). */
  only?: string;
}) {
  const sample = await pack(samplePack);
  const full = await pack(fullPack);
  const subjects = [
    await subject(Before, sample, 'sample', 'before'),
    await subject(After, sample, 'sample', 'after'),
    await subject(Before, full, 'full', 'before'),
    await subject(After, full, 'full', 'after'),
  ];
  const results = [];
  for (const search of searches(rounds, questions, sample).filter((search) => only === undefined || search.name.includes(only))) {
    const times = new Map(subjects.map((s) => [s, [] as number[]]));
    // Warm-up: every subject answers the question once (the JIT, the scratch arrays of the new index). That first
    // ask is the cold one: no index has been asked the question before, nor, but for the words of earlier
    // questions, looked its words up.
    const firstAsk = new Map<Subject, number>();
    for (const s of subjects) {
      const started = performance.now();
      // The round after the last (for the searches that vary by round, the same question as round 0's but for the cold ones).
      search.ask(s, search.rounds);
      firstAsk.set(s, performance.now() - started);
    }
    for (let round = 0; round < search.rounds; round++) {
      // Interleaved, in an order that turns each round, so no build or size always goes first.
      const answers = new Map<string, string>();
      for (let i = 0; i < subjects.length; i++) {
        const s = subjects[(i + round) % subjects.length]!;
        const started = performance.now();
        const answer = search.ask(s, round);
        times.get(s)!.push(performance.now() - started);
        const json = JSON.stringify(answer);
        const other = answers.get(s.size);
        if (other !== undefined && other !== json) {
          throw new Error(`${search.name}, round ${round}: the ${s.size} index answers differently after the change`);
        }
        answers.set(s.size, json);
      }
    }
    const subjectOf = (size: Subject['size'], build: Subject['build']) => subjects.find((s) => s.size === size && s.build === build)!;
    const p50 = (size: Subject['size'], build: Subject['build']) => median(times.get(subjectOf(size, build))!);
    const first = (size: Subject['size'], build: Subject['build']) => firstAsk.get(subjectOf(size, build))!;
    results.push({
      search: search.name,
      rounds: search.rounds,
      sample: { before: p50('sample', 'before'), after: p50('sample', 'after') },
      full: { before: p50('full', 'before'), after: p50('full', 'after') },
      firstAsk: {
        sample: { before: first('sample', 'before'), after: first('sample', 'after') },
        full: { before: first('full', 'before'), after: first('full', 'after') },
      },
    });
    process.stderr.write(`${search.name}: done\n`);
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}
