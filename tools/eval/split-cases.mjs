// `node tools/eval/split-cases.mjs <folder>`: copies the independent cases (issue 28: alignment.json,
// terms.json, roles.json written by someone who had not read the matching code) into
// tools/eval/cases/independent, each case marked `dev` or `test` by splitBySeed with the seed below. Run
// once: it refuses to overwrite a split, so the parts never change; tune on `dev`, report `test`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CASE_FILES, INDEPENDENT_CASES_DIR, splitBySeed } from '../../e2e/src/tool-quality.ts';

export const SPLIT_SEED = 'stdreg-issue-28-2026-11-26';

const source = process.argv[2];
if (!source) throw new Error('usage: node tools/eval/split-cases.mjs <folder with alignment.json, terms.json, roles.json>');
if (CASE_FILES.some((file) => existsSync(path.join(INDEPENDENT_CASES_DIR, file)))) {
  throw new Error(`${INDEPENDENT_CASES_DIR} already holds a split; the parts are made once and never again`);
}
mkdirSync(INDEPENDENT_CASES_DIR, { recursive: true });
for (const file of CASE_FILES) {
  const read = JSON.parse(readFileSync(path.join(source, file), 'utf8'));
  const cases = Array.isArray(read) ? read : read.cases;
  const split = splitBySeed(cases, SPLIT_SEED);
  const about =
    `Written for issue 28 by someone who had not read the matching code, briefed only with the content pack (without clause ` +
    `conditions and term designations) and the tools' descriptions. Split once by splitBySeed (e2e/src/tool-quality.ts) ` +
    `with the seed "${SPLIT_SEED}": tune only on part "dev"; part "test" is reported, never read case by case.`;
  writeFileSync(
    path.join(INDEPENDENT_CASES_DIR, file),
    `${JSON.stringify({ about, seed: SPLIT_SEED, ...(read.about ? { writersNote: read.about } : {}), cases: split }, null, 2)}\n`,
  );
  const count = (part, lang) => split.filter((c) => c.part === part && c.lang === lang).length;
  process.stdout.write(
    `${file}: ${split.length} cases; dev ${count('dev', 'en')} en + ${count('dev', 'zh-Hans')} zh-Hans, test ${count('test', 'en')} en + ${count('test', 'zh-Hans')} zh-Hans\n`,
  );
}
