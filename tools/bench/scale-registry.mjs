// The registry area of scale.bench.mjs (issue 21): a content pack generated at scale
// (tools/scale/registry-pack-generator.mjs), its validation and import timed with the operator's command
// (dist/apps/standards-api/import-content.js), a second standards-api serving it beside the first one
// (which serves the sample pack), each server's resident memory, the pages walked end to end to prove
// them right, and the reads measured: `registryReads` for scale.bench.mjs's `measure`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateRegistryPack } from '../scale/registry-pack-generator.mjs';
// mulberry32, the generator the pack generator draws with: the same practices on every machine.
import { generator as random } from '../../e2e/src/simulation/schedule.ts';
import { ROOT, createBenchDatabase, log, requestJson } from './bench-kit.mjs';

const IMPORT_COMMAND = path.join(ROOT, 'dist/apps/standards-api/import-content.js');
export const SAMPLE_PACK = path.join(ROOT, 'libs/registry-content/pack');
const GNU_TIME = '/usr/bin/time';
const WALK_LIMIT = 100;
const API = '/api/v2';
const LANGUAGES = [null, 'en', 'zh-Hans'];
const AT = '2025-06-01';
// A sample term whose words the generated terms do not use: its search finds as much at both sizes.
export const SAMPLE_TERM = { en: 'Idempotency key', zh: '幂等键' };
export const ROLE_QUERY = 'someone who approves settlement runs and signs payment instructions';
export const ROLE_QUERY_ZH = '负责审批结算批次并签署付款指令的人';
export const PRACTICE =
  'Our AI agent releases payments automatically every Friday; nobody signs off on them, and the same analyst prepares and approves the settlement run. The equity ledger is reconciled once a year.';
export const PRACTICE_ZH = '我们的AI助手每周五自动付款，没有人审批；结算批次由同一名分析师编制并审批。股权账簿每年核对一次。';

/**
 * The practices of the cold alignment rows: the i-th is two clauses of the sample pack's current blocks (every pair
 * of its current clauses, in an order shuffled with seed 30), in one language. The full pack holds the sample's blocks,
 * so both sizes are asked the same text, in the registry's own words, and each server is asked each text once: the
 * only difference between the sizes is the registry asked.
 */
function freshPractices() {
  const blocks = JSON.parse(readFileSync(path.join(SAMPLE_PACK, 'standards.json'), 'utf8'));
  const clauses = blocks.filter((block) => block.status === 'current').flatMap((block) => block.clauses);
  const pairs = clauses.flatMap((first, a) => clauses.slice(a + 1).map((second) => [first, second]));
  const next = random(30);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  return pairs;
}
let practices;
/** The i-th fresh practice in a language (see freshPractices). */
export const freshPractice = (i, language) =>
  (practices ??= freshPractices())[i % practices.length].map((clause) => clause.text[language]).join(' ');
/** How many fresh practices there are: the pairs of the sample pack's current clauses. */
const freshPracticeCount = () => (practices ??= freshPractices()).length;

/** Resident and peak memory of a process, in MB, from /proc (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * Runs the import command on a pack (with `--check`: validation only); its wall time in seconds and its
 * peak RSS (GNU time's maximum resident set size; null on a machine without /usr/bin/time).
 */
function importCommand(env, directory, check) {
  const command = [process.execPath, IMPORT_COMMAND, ...(check ? ['--check'] : []), directory];
  const timed = existsSync(GNU_TIME);
  const started = performance.now();
  const result = spawnSync(timed ? GNU_TIME : command[0], timed ? ['-f', '%M', ...command] : command.slice(1), {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const lines = result.stderr.trim().split('\n');
  if (result.status !== 0)
    throw new Error(`import-content ${check ? '--check ' : ''}${directory}: ${result.stdout}${lines.slice(0, 20).join('\n')}`);
  log(`import-content ${check ? '--check ' : ''}${path.basename(directory)}: ${result.stdout.trim()} (${seconds.toFixed(1)} s)`);
  return { seconds, peakMb: timed ? Number(lines.at(-1)) / 1024 : null };
}

/**
 * Generates the pack of `sizes` into `directory`, checks it and imports it (after the sample pack, both
 * timed) into a database of its own, then starts `startServer(databaseUrl)` on it: the full-size subject.
 */
export async function seedRegistry({ sizes, seed, directory, serverEnv, startServer }) {
  const generatedAt = performance.now();
  const generated = generateRegistryPack({ directory, samplePackDirectory: SAMPLE_PACK, seed, ...sizes });
  const generateSeconds = (performance.now() - generatedAt) / 1000;
  log(
    `registry pack: ${generated.standards} blocks (${generated.standardVersions} versions), ${generated.terms} terms, ${generated.tasks} tasks, ${generated.policies} policies generated in ${generateSeconds.toFixed(1)} s`,
  );
  const databaseUrl = await createBenchDatabase(`scale_registry_${seed}_${process.pid}`);
  const env = serverEnv(databaseUrl);
  const check = importCommand(env, directory, true);
  const sampleImport = importCommand(env, SAMPLE_PACK, false);
  const fullImport = importCommand(env, directory, false);
  const server = await startServer(databaseUrl);
  return { generated, generateSeconds, check, sampleImport, fullImport, server };
}

/** Text order, the order of every list but the standards'. */
const byCodeUnits = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** The standards' order, written here from README's words: letters as text, then the number as a number (RUL-9 before RUL-10). */
function bySectionId(a, b) {
  const [aLetters, aNumber] = [a.slice(0, a.lastIndexOf('-')), Number(a.slice(a.lastIndexOf('-') + 1))];
  const [bLetters, bNumber] = [b.slice(0, b.lastIndexOf('-')), Number(b.slice(b.lastIndexOf('-') + 1))];
  return byCodeUnits(aLetters, bLetters) || aNumber - bNumber;
}

/**
 * Walks every page of a registry list (pages of WALK_LIMIT) and proves them right: keys strictly
 * ascending in the list's order (no item twice, none skipped between pages), as many as the manifest counts,
 * the last page without a next cursor. Resolves with the items in list order.
 */
async function walk(port, list, keyOf, expected, order = byCodeUnits) {
  const items = [];
  let cursor = null;
  do {
    const page = await requestJson(port, 'GET', `${API}/${list}?limit=${WALK_LIMIT}${cursor ? `&cursor=${cursor}` : ''}`, {});
    for (const item of page.items) {
      if (items.length > 0 && !(order(keyOf(items.at(-1)), keyOf(item)) < 0))
        throw new Error(`${list}: ${keyOf(item)} follows ${keyOf(items.at(-1))}`);
      items.push(item);
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (items.length !== expected) throw new Error(`${list}: the pages hold ${items.length} items, the manifest counts ${expected}`);
  return items;
}

/** What the reads of one server need (ids, cursors, queries), found by walking its lists, each page checked. */
export async function describeRegistry(port, cursorOf, page) {
  const manifest = await requestJson(port, 'GET', `${API}/manifest`, {});
  const standards = await walk(port, 'standards', (s) => s.sectionId, manifest.counts.standards, bySectionId);
  const terms = await walk(port, 'terms', (t) => t.termId, manifest.counts.terms);
  const tasks = await walk(port, 'tasks', (t) => t.taskCode, manifest.counts.tasks);
  const policies = await walk(port, 'policies', (p) => p.policyId, manifest.counts.policies);
  // The cursor of the last page: after the item a page from the end (none when the whole list fits in one page).
  const lastCursor = (list, items, keyOf) => (items.length > page ? `&cursor=${cursorOf(list, keyOf(items.at(-page - 1)))}` : '');
  const subject = {
    port,
    counts: manifest.counts,
    sectionIds: standards.map((s) => s.sectionId),
    // The terms searched: every term's names, in list order (the sample's first, then the generated).
    namesEn: terms.map((t) => t.term.en),
    namesZh: terms.map((t) => t.term['zh-Hans']),
    termIds: terms.map((t) => t.termId),
    taskCodes: tasks.map((t) => t.taskCode),
    policyIds: policies.map((p) => p.policyId),
    lastSectionId: standards.at(-1).sectionId,
    lastTaskCode: tasks.at(-1).taskCode,
    lastPolicyId: policies.at(-1).policyId,
    lastStandardsCursor: lastCursor('standards', standards, (s) => s.sectionId),
    lastTermsCursor: lastCursor('terms', terms, (t) => t.termId),
    lastTasksCursor: lastCursor('tasks', tasks, (t) => t.taskCode),
  };
  await checkReads(port, subject, page);
  return subject;
}

/** The reads answer what they should: deep pages end the lists, versions and dates pick the right version, a name finds its term first. */
async function checkReads(port, subject, page) {
  const get = (urlPath) => requestJson(port, 'GET', `${API}${urlPath}`, {});
  const last = await get(`/standards?limit=${page}${subject.lastStandardsCursor}`);
  const lastPageSize = Math.min(page, subject.counts.standards);
  if (last.nextCursor !== null || last.items.length !== lastPageSize || last.items.at(-1).sectionId !== subject.lastSectionId)
    throw new Error('the last page of standards is not the last standards blocks');
  const first = await get(`/standards/${subject.lastSectionId}?version=1.0`);
  if (first.version !== '1.0' || first.citation !== `${subject.lastSectionId}@1.0`)
    throw new Error('?version=1.0 did not answer version 1.0');
  const policy = await get(`/policies/${subject.lastPolicyId}?at=${AT}`);
  if (!(policy.effectiveFrom <= AT && (policy.effectiveTo === null || AT <= policy.effectiveTo)))
    throw new Error(`?at=${AT} answered a version in force from ${policy.effectiveFrom} to ${policy.effectiveTo}`);
  for (const [names, language] of [
    [subject.namesEn, 'en'],
    [subject.namesZh, 'zh-Hans'],
  ]) {
    const index = Math.floor(names.length / 2);
    const found = await get(`/terms?q=${encodeURIComponent(names[index])}&limit=${page}`);
    if (found.items[0]?.termId !== subject.termIds[index])
      throw new Error(`terms?q=${names[index]} (${language}) did not answer ${subject.termIds[index]} first`);
  }
}

/** One request's path for the reads that ask something the server has not built yet: item and language vary. */
const coldBlock = (subject, i, query = '') => {
  const language = LANGUAGES[i % LANGUAGES.length];
  const sectionId = subject.sectionIds[Math.floor(i / LANGUAGES.length) % subject.sectionIds.length];
  const parameters = [query, language ? `lang=${language}` : ''].filter(Boolean).join('&');
  return `${API}/standards/${sectionId}${parameters ? `?${parameters}` : ''}`;
};
/** The terms searched, spread over the whole list (the generated terms, at full size), each once. */
const spread = (names, i, count) => names[Math.floor((i * names.length) / count) % names.length];

/**
 * The reads, for scale.bench.mjs's `measure`: `path(subject, i)` for the i-th request; a read with `cold`
 * asks a different representation on each request (as many as the sample pack has: `cold(subject)`), the
 * others repeat one URL, as a client of a popular page does, and meet the server's representation cache.
 */
export function registryReads(page) {
  const search = (body) => ({ method: 'POST', path: () => `${API}/search`, body });
  return [
    { area: 'registry', read: 'manifest', path: () => `${API}/manifest` },
    { area: 'registry', read: `standards, first page (${page})`, path: () => `${API}/standards?limit=${page}` },
    {
      area: 'registry',
      read: `standards, last page (${page})`,
      path: (s) => `${API}/standards?limit=${page}${s.lastStandardsCursor}`,
    },
    { area: 'registry', read: `terms, first page (${page})`, path: () => `${API}/terms?limit=${page}` },
    { area: 'registry', read: `terms, last page (${page})`, path: (s) => `${API}/terms?limit=${page}${s.lastTermsCursor}` },
    { area: 'registry', read: `tasks, last page (${page})`, path: (s) => `${API}/tasks?limit=${page}${s.lastTasksCursor}` },
    { area: 'registry', read: 'one block (current version)', path: (s) => `${API}/standards/${s.lastSectionId}` },
    { area: 'registry', read: 'one block, `?version=1.0`', path: (s) => `${API}/standards/${s.lastSectionId}?version=1.0` },
    { area: 'registry', read: 'one task', path: (s) => `${API}/tasks/${s.lastTaskCode}` },
    { area: 'registry', read: `one policy, \`?at=${AT}\``, path: (s) => `${API}/policies/${s.lastPolicyId}?at=${AT}` },
    { area: 'registry', read: 'one policy, `?version=1.0`', path: (s) => `${API}/policies/${s.lastPolicyId}?version=1.0` },
    {
      area: 'registry',
      read: '`terms?q=` a term name (en)',
      path: (s) => `${API}/terms?limit=${page}&q=${encodeURIComponent(s.namesEn.at(-1))}`,
    },
    {
      area: 'registry',
      read: '`terms?q=` a term name (zh-Hans)',
      path: (s) => `${API}/terms?limit=${page}&q=${encodeURIComponent(s.namesZh.at(-1))}`,
    },
    {
      area: 'registry (cold)',
      read: 'one block, a different one each time',
      cold: (s) => s.sectionIds.length * LANGUAGES.length,
      path: (s, i) => coldBlock(s, i),
    },
    {
      area: 'registry (cold)',
      read: 'one block `?version=1.0`, a different one each time',
      cold: (s) => s.sectionIds.length * LANGUAGES.length,
      path: (s, i) => coldBlock(s, i, 'version=1.0'),
    },
    {
      area: 'registry (cold)',
      read: '`terms?q=` a different term name each time (en)',
      cold: (s) => s.namesEn.length,
      path: (s, i, count) => `${API}/terms?limit=${page}&q=${encodeURIComponent(spread(s.namesEn, i, count))}`,
    },
    {
      area: 'registry (cold)',
      read: '`terms?q=` a different term name each time (zh-Hans)',
      cold: (s) => s.namesZh.length,
      path: (s, i, count) => `${API}/terms?limit=${page}&q=${encodeURIComponent(spread(s.namesZh, i, count))}`,
    },
    {
      area: 'search (resolve_term)',
      read: `\`POST /search\` in terms, "${SAMPLE_TERM.en}" (a sample term: as many matches at both sizes)`,
      ...search(() => ({ q: SAMPLE_TERM.en, in: 'terms', limit: 5 })),
    },
    {
      area: 'search (resolve_term)',
      read: `\`POST /search\` in terms, "${SAMPLE_TERM.zh}" (the same in zh-Hans)`,
      ...search(() => ({ q: SAMPLE_TERM.zh, in: 'terms', limit: 5 })),
    },
    {
      area: 'search (resolve_term)',
      read: '`POST /search` in terms, the last term name (en)',
      ...search((s) => ({ q: s.namesEn.at(-1), in: 'terms', limit: 5 })),
    },
    {
      area: 'search (resolve_term)',
      read: '`POST /search` in terms, the last term name (zh-Hans)',
      ...search((s) => ({ q: s.namesZh.at(-1), in: 'terms', limit: 5 })),
    },
    { area: 'search (recommend_role)', read: '`POST /search` in roles (en)', ...search(() => ({ q: ROLE_QUERY, in: 'roles', limit: 3 })) },
    {
      area: 'search (recommend_role)',
      read: '`POST /search` in roles (zh-Hans)',
      ...search(() => ({ q: ROLE_QUERY_ZH, in: 'roles', limit: 3 })),
    },
    {
      area: 'search (draft_alignment_report)',
      read: '`POST /search` in standards, a practice (en)',
      ...search(() => ({ q: PRACTICE, in: 'standards', limit: 5 })),
    },
    {
      area: 'search (draft_alignment_report)',
      read: '`POST /search` in standards, a practice (zh-Hans)',
      ...search(() => ({ q: PRACTICE_ZH, in: 'standards', limit: 5 })),
    },
    {
      area: 'search (draft_alignment_report, cold)',
      read: '`POST /search` in standards, a new practice each time (two sample clauses, en)',
      cold: freshPracticeCount,
      ...search((s, i) => ({ q: freshPractice(i, 'en'), in: 'standards', limit: 5 })),
    },
    {
      area: 'search (draft_alignment_report, cold)',
      read: '`POST /search` in standards, a new practice each time (two sample clauses, zh-Hans)',
      cold: freshPracticeCount,
      ...search((s, i) => ({ q: freshPractice(i, 'zh-Hans'), in: 'standards', limit: 5 })),
    },
  ];
}
