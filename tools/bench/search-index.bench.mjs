// `npm run bench:search-index [-- --before <ref>] [--rounds <n>] [--only <text>]`: the registry's search index of a commit
// before (default: where this branch left main) against the working tree's, in one process, over the
// sample pack and a pack generated at full size (tools/scale/registry-pack-generator.mjs, the sizes and
// seed of `bench:scale -- --size full`), every search asked of the four in turn and every answer of the
// two compared (see search-index-queries.ts). Prints a Markdown table of the p50s; raw results go to
// tools/bench/results/search-index.json. `--only` asks only the searches whose name contains the text. The rows named
// "cold:" ask a question no index was asked before in each round (a new term name, a clause as a need, two
// clauses as a practice); a second table gives each search's first ask, one ask each, so noisier.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundle } from '../build/bundle.mjs';
import { generateRegistryPack } from '../scale/registry-pack-generator.mjs';
import { ROOT, log } from './bench-kit.mjs';
import { PRACTICE, PRACTICE_ZH, ROLE_QUERY, ROLE_QUERY_ZH, SAMPLE_TERM, freshPractice } from './scale-registry.mjs';

const { values: options } = parseArgs({
  options: { before: { type: 'string' }, rounds: { type: 'string', default: '40' }, only: { type: 'string' } },
});
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const before = options.before ?? git('merge-base', 'HEAD', 'main');
const outdir = path.join(ROOT, 'dist/bench/search-index');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(path.join(outdir, 'before'), { recursive: true });

// The standards-api sources of the commit before; the workspace libraries are the working tree's.
execFileSync('sh', ['-c', `git archive ${before} apps/standards-api/src | tar -x -C ${JSON.stringify(path.join(outdir, 'before'))}`], {
  cwd: ROOT,
});
const fullPack = path.join(outdir, 'full-pack');
const sizes = { standards: 5_000, versions: 3, terms: 100_000, tasks: 1_000, policies: 1_000 };
generateRegistryPack({ directory: fullPack, samplePackDirectory: path.join(ROOT, 'libs/registry-content/pack'), seed: 21, ...sizes });
log(`search index: ${git('rev-parse', '--short', before)} (before) against the working tree, full pack generated`);

// Each build's index and the functions that turn a pack's records into what it is built from.
const modules = (root) =>
  ['search-index/registry-search-index', 'registry/registry-release', 'registry/registry-records'].map((module) =>
    JSON.stringify(path.join(root, 'apps/standards-api/src', module)),
  );
// The practices of scale-registry.mjs's cold alignment rows, one for each round and the warm-up's.
const rounds = Number(options.rounds);
const FRESH_PRACTICES = Object.fromEntries(
  ['en', 'zh-Hans'].map((language) => [language, Array.from({ length: rounds + 1 }, (_, i) => freshPractice(i, language))]),
);
const [beforeIndex, beforeRelease, beforeRecords] = modules(path.join(outdir, 'before'));
const [afterIndex, afterRelease, afterRecords] = modules(ROOT);
writeFileSync(
  path.join(outdir, 'entry.ts'),
  [
    `import { RegistrySearchIndex as BeforeIndex } from ${beforeIndex};`,
    `import { indexedStandard as beforeStandard } from ${beforeRelease};`,
    `import * as beforeRecords from ${beforeRecords};`,
    `import { RegistrySearchIndex as AfterIndex } from ${afterIndex};`,
    `import { indexedStandard as afterStandard } from ${afterRelease};`,
    `import * as afterRecords from ${afterRecords};`,
    `import { run } from '${path.join(ROOT, 'tools/bench/search-index-queries')}';`,
    `const Before = { ...beforeRecords, RegistrySearchIndex: BeforeIndex, indexedStandard: beforeStandard };`,
    `const After = { ...afterRecords, RegistrySearchIndex: AfterIndex, indexedStandard: afterStandard };`,
    `await run({ Before, After, samplePack: ${JSON.stringify(path.join(ROOT, 'libs/registry-content/pack'))}, fullPack: ${JSON.stringify(fullPack)}, rounds: ${rounds}, only: ${JSON.stringify(options.only)}, questions: ${JSON.stringify({ SAMPLE_TERM, ROLE_QUERY, ROLE_QUERY_ZH, PRACTICE, PRACTICE_ZH, FRESH_PRACTICES })} });`,
  ].join('\n'),
);
await bundle({ entryPoints: { main: path.join(outdir, 'entry.ts') }, outdir });
const output = execFileSync(process.execPath, ['--max-old-space-size=6144', path.join(outdir, 'main.js')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 16 * 1024 * 1024,
});
const results = JSON.parse(output);
mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  path.join(import.meta.dirname, 'results/search-index.json'),
  JSON.stringify({ date: new Date().toISOString(), before, after: git('rev-parse', 'HEAD'), sizes, results }, null, 2) + '\n',
);

const ms = (value) => value.toFixed(2);
const ratio = (a, b) => (a / b).toFixed(2);
console.log(
  '| search | rounds | sample p50 ms, before / after | full p50 ms, before / after | full/sample p50, before | full/sample p50, after | full, after/before |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(
    `| ${r.search} | ${r.rounds} | ${ms(r.sample.before)} / ${ms(r.sample.after)} | ${ms(r.full.before)} / ${ms(r.full.after)} | ${ratio(r.full.before, r.sample.before)} | ${ratio(r.full.after, r.sample.after)} | ${ratio(r.full.after, r.full.before)} |`,
  );
}
console.log('\nFirst ask of each search (cold), one ask each:\n');
console.log(
  '| search | sample ms, before / after | full ms, before / after | full/sample, before | full/sample, after | full, after/before |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const { search, firstAsk: f } of results) {
  console.log(
    `| ${search} | ${ms(f.sample.before)} / ${ms(f.sample.after)} | ${ms(f.full.before)} / ${ms(f.full.after)} | ${ratio(f.full.before, f.sample.before)} | ${ratio(f.full.after, f.sample.after)} | ${ratio(f.full.after, f.full.before)} |`,
  );
}
