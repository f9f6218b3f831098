import type { StandardBlockDto } from '@stdreg/contracts';
import { z } from 'zod';
import { defineTool, PURE_READ } from '../tool-definition';
import { failure, localized } from '../shared-schemas';

const CHANGES = ['added', 'removed', 'changed', 'unchanged'] as const;
const version = z.string().regex(/^[0-9]+\.[0-9]+$/, 'must look like 1.0');

const output = z.object({
  sectionId: z.string(),
  from: z.string(),
  to: z.string(),
  titleChanged: z.boolean(),
  summaryChanged: z.boolean(),
  clauses: z.array(z.object({ clauseId: z.string(), change: z.enum(CHANGES), before: localized.nullable(), after: localized.nullable() })),
  summary: localized,
});

const same = (a: { en: string; 'zh-Hans': string }, b: { en: string; 'zh-Hans': string }) => a.en === b.en && a['zh-Hans'] === b['zh-Hans'];

export const compareStandardVersions = defineTool({
  name: 'compare_standard_versions',
  title: 'Compare standard versions',
  description: 'Clause-by-clause diff of two versions of a standards block, both languages.',
  input: z.object({ sectionId: z.string().regex(/^[A-Z]{2,5}-[0-9]{1,3}$/, 'must look like RUL-3'), from: version, to: version }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: ({ registry }) => ({ registry }),
  async run({ sectionId, from, to }, { registry }) {
    const [before, after] = await Promise.all(
      [from, to].map((v) => registry.read<StandardBlockDto>(`/standards/${sectionId}`, { version: v })),
    );
    for (const [side, result] of [
      [from, before!],
      [to, after!],
    ] as const) {
      if (!result.ok)
        return failure(
          result.status === 404
            ? `${sectionId}@${side} does not exist; read stdreg://standards/${sectionId} for its versions.`
            : result.message,
        );
    }
    if (!before!.ok || !after!.ok) return failure('unreachable');
    const a = before!.body;
    const b = after!.body;
    const ids = [...new Set([...a.clauses, ...b.clauses].map((c) => c.clauseId))].sort((x, y) =>
      x.localeCompare(y, 'en', { numeric: true }),
    );
    const clauses = ids.map((clauseId) => {
      const old = a.clauses.find((c) => c.clauseId === clauseId)?.text ?? null;
      const now = b.clauses.find((c) => c.clauseId === clauseId)?.text ?? null;
      const change = old === null ? 'added' : now === null ? 'removed' : same(old, now) ? 'unchanged' : 'changed';
      return { clauseId, change, before: old, after: now } as const;
    });
    const count = (kind: (typeof CHANGES)[number]) => clauses.filter((c) => c.change === kind).length;
    const summary = {
      en: `${sectionId} ${from} → ${to}: ${count('added')} clause(s) added, ${count('removed')} removed, ${count('changed')} changed.`,
      'zh-Hans': `${sectionId} ${from} → ${to}：新增 ${count('added')} 条，删除 ${count('removed')} 条，修改 ${count('changed')} 条。`,
    };
    return {
      ok: true,
      output: { sectionId, from, to, titleChanged: !same(a.title, b.title), summaryChanged: !same(a.summary, b.summary), clauses, summary },
    };
  },
  render: (o) =>
    [
      o.summary.en,
      o.summary['zh-Hans'],
      ...o.clauses
        .filter((c) => c.change !== 'unchanged')
        .map((c) => `§${c.clauseId} ${c.change}${c.after ? `: ${c.after.en} / ${c.after['zh-Hans']}` : ''}`),
    ].join('\n'),
});
