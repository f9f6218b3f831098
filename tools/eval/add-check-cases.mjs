// `node tools/eval/add-check-cases.mjs <folder>`: copies a second author's independent cases (alignment.json,
// terms.json, roles.json, written without reading the matching code) into tools/eval/cases/check, every case in
// part `check`. Run once: it refuses to overwrite them, to add a label the pack does not have, or an id the first
// author's cases use. The check part is measured as figures only, to keep or drop a method before test is read.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../bench/bench-kit.mjs';
import { CASE_FILES, CHECK_CASES_DIR, INDEPENDENT_CASES_DIR, caseLabelErrors, loadCases, packLabels } from '../../e2e/src/tool-quality.ts';

const source = process.argv[2];
if (!source) throw new Error('usage: node tools/eval/add-check-cases.mjs <folder with alignment.json, terms.json, roles.json>');
if (CASE_FILES.some((file) => existsSync(path.join(CHECK_CASES_DIR, file)))) {
  throw new Error(`${CHECK_CASES_DIR} already holds the check part; it is written once and never again`);
}
const labels = packLabels(path.join(ROOT, 'libs/registry-content/pack'));
const read = Object.fromEntries(CASE_FILES.map((file) => [file, JSON.parse(readFileSync(path.join(source, file), 'utf8'))]));
const cases = { alignment: read['alignment.json'].cases, terms: read['terms.json'].cases, roles: read['roles.json'].cases };
const first = loadCases(INDEPENDENT_CASES_DIR);
// With the first author's cases, so that an id they use is found twice.
const errors = caseLabelErrors(
  {
    alignment: [...first.alignment, ...cases.alignment],
    terms: [...first.terms, ...cases.terms],
    roles: [...first.roles, ...cases.roles],
  },
  labels,
);
if (errors.length > 0) throw new Error(`the cases are not added:\n${errors.join('\n')}`);

mkdirSync(CHECK_CASES_DIR, { recursive: true });
const about =
  'Written for issue 28 by a second author who had not read the matching code nor the first cases, briefed only with the ' +
  "content pack (without clause conditions and term designations) and the tools' descriptions, after seven rounds of " +
  'tuning on part "dev" of tools/eval/cases/independent. Part "check": measured as figures only, never read case by ' +
  'case, to keep or drop a method before part "test" is read.';
for (const file of CASE_FILES) {
  const { writersNote, cases: written } = read[file];
  const checked = written.map((c) => ({ ...c, part: 'check' }));
  writeFileSync(path.join(CHECK_CASES_DIR, file), `${JSON.stringify({ about, writersNote, cases: checked }, null, 2)}\n`);
  const count = (lang) => checked.filter((c) => c.lang === lang).length;
  process.stdout.write(`${file}: ${checked.length} cases, ${count('en')} en + ${count('zh-Hans')} zh-Hans\n`);
}
