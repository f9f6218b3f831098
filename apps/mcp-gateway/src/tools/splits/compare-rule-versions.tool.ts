import { diffRuleVersions, rulesDigest } from '@stdreg/split-engine';
import { z } from 'zod';
import { defineTool, NOTHING, PURE_READ } from '../tool-definition';
import { failure, localized } from '../shared-schemas';
import { readScenario, scenarioContent } from './scenario-input';

const output = z.object({
  beforeDigest: z.string(),
  afterDigest: z.string(),
  identical: z.boolean(),
  changes: z.array(z.object({ kind: z.string(), description: localized, facts: z.record(z.string(), z.unknown()) })),
});

export const compareRuleVersions = defineTool({
  name: 'compare_rule_versions',
  title: 'Compare rule versions',
  description: 'Structured and bilingual diff of two versions of split rules (participants, tiers, shares, caps).',
  input: z.object({ before: scenarioContent, after: scenarioContent }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: NOTHING,
  async run({ before, after }) {
    const a = readScenario(before, 'before');
    if (!a.ok) return failure(a.message);
    const b = readScenario(after, 'after');
    if (!b.ok) return failure(b.message);
    const changes = diffRuleVersions(a.scenario, b.scenario).map(({ kind, description, ...facts }) => ({ kind, description, facts }));
    const beforeDigest = rulesDigest(a.scenario);
    const afterDigest = rulesDigest(b.scenario);
    return { ok: true, output: { beforeDigest, afterDigest, identical: beforeDigest === afterDigest, changes } };
  },
  render: (o) =>
    o.changes.length === 0
      ? 'The split rules are identical.'
      : o.changes.map((c) => `- ${c.description.en} / ${c.description['zh-Hans']}`).join('\n'),
});
