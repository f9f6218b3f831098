import path from 'node:path';
import {
  CHECK_CASES_DIR,
  INDEPENDENT_CASES_DIR,
  caseLabelErrors,
  historyRow,
  loadCases,
  loadPart,
  packLabels,
  splitBySeed,
  withHistoryRow,
  type Figure,
  type Language,
} from '../src/tool-quality';

const cases = (lang: Language, count: number) => Array.from({ length: count }, (_, i) => ({ id: `${lang}-${i}`, lang, text: `case ${i}` }));

describe('the split of the independent cases', () => {
  const all = [...cases('en', 41), ...cases('zh-Hans', 40)];

  it('halves each language, the odd one out going to dev', () => {
    const split = splitBySeed(all, 'seed');
    const count = (part: string, lang: Language) => split.filter((c) => c.part === part && c.lang === lang).length;
    expect([count('dev', 'en'), count('test', 'en'), count('dev', 'zh-Hans'), count('test', 'zh-Hans')]).toEqual([21, 20, 20, 20]);
  });

  it('gives a case the same part whatever the order the cases come in, and keeps their order and fields', () => {
    const split = splitBySeed(all, 'seed');
    const reversed = splitBySeed([...all].reverse(), 'seed');
    expect(new Map(reversed.map((c) => [c.id, c.part]))).toEqual(new Map(split.map((c) => [c.id, c.part])));
    expect(split.map(({ part: _part, ...c }) => c)).toEqual(all);
  });

  it('draws another split from another seed', () => {
    const parts = (seed: string) => splitBySeed(all, seed).map((c) => c.part);
    expect(parts('one')).not.toEqual(parts('two'));
  });

  it('refuses cases that share an id', () => {
    expect(() => splitBySeed([...cases('en', 2), ...cases('en', 1)], 'seed')).toThrow('en-0');
  });
});

describe('the history of the test figures', () => {
  const figures: Figure[] = [
    { tool: 'draft_alignment_report', lang: 'all', metric: 'recall@5', value: 0.876 },
    { tool: 'draft_alignment_report', lang: 'en', metric: 'recall@5', value: 0.5 },
    { tool: 'resolve_term', lang: 'all', metric: 'empty answers', value: 2 },
  ];
  const doc = ['# Doc', '<!-- test-history:start -->', '| date | commit | a |', '|---|---|---|', '<!-- test-history:end -->', 'after'].join(
    '\n',
  );

  it('writes the figures of both languages together, a dash for one not measured', () => {
    expect(historyRow('2026-11-26', 'abc1234', figures)).toBe('| 2026-11-26 | abc1234 | 0.88 | - | - | - | - | 2 | - |');
  });

  it('adds a row per commit and replaces the last row on a re-run of the same commit', () => {
    const once = withHistoryRow(doc, '| 2026-11-26 | abc | 1 |');
    const twice = withHistoryRow(withHistoryRow(once, '| 2026-11-26 | def | 2 |'), '| 2026-11-26 | def | 3 |');
    expect(twice).toBe(
      [
        '# Doc',
        '<!-- test-history:start -->',
        '| date | commit | a |',
        '|---|---|---|',
        '| 2026-11-26 | abc | 1 |',
        '| 2026-11-26 | def | 3 |',
        '<!-- test-history:end -->',
        'after',
      ].join('\n'),
    );
  });
});

describe('the labels of the independent cases', () => {
  const labels = {
    clausesBySection: new Map([['FIN-2', new Set(['1', '2'])]]),
    termIds: new Set(['basis-point']),
    roleIds: new Set(['project-owner']),
  };
  const practice = { id: 'p', lang: 'en' as const, practice: 'text', relevant: ['FIN-2'], violates: ['FIN-2#2'] };
  const term = { id: 't', lang: 'en' as const, text: 'bps', expected: ['basis-point'] };
  const role = { id: 'r', lang: 'en' as const, description: 'owns it', expected: 'project-owner' };

  it('finds nothing wrong in labels the pack has', () => {
    expect(caseLabelErrors({ alignment: [practice], terms: [term], roles: [role] }, labels)).toEqual([]);
  });

  it('names each label the pack does not have and each id used twice', () => {
    const errors = caseLabelErrors(
      {
        alignment: [{ ...practice, relevant: ['FIN-9'], violates: ['FIN-2#3', 'FIN-2'] }],
        terms: [{ ...term, expected: ['basis-points'] }],
        roles: [{ ...role, id: 'p', expected: 'owner' }],
      },
      labels,
    );
    expect(errors).toEqual([
      'p: the id appears twice',
      'p: no standard FIN-9',
      'p: no current clause FIN-2#3',
      'p: no current clause FIN-2',
      't: no term basis-points',
      'p: no role owner',
    ]);
  });

  it('holds for every case in the repository: each label is in the content pack, no id is in two parts', () => {
    const pack = packLabels(path.join(import.meta.dirname, '../../libs/registry-content/pack'));
    const independent = loadCases(INDEPENDENT_CASES_DIR);
    const check = loadPart('check', CHECK_CASES_DIR) ?? { alignment: [], terms: [], roles: [] };
    const all = {
      alignment: [...independent.alignment, ...check.alignment],
      terms: [...independent.terms, ...check.terms],
      roles: [...independent.roles, ...check.roles],
    };
    expect(caseLabelErrors(all, pack)).toEqual([]);
    expect(all.alignment.length).toBeGreaterThan(0);
  });
});
