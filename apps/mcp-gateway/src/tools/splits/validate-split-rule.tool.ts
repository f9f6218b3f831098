import { rulesDigest, validateScenario } from '@stdreg/split-engine';
import { z } from 'zod';
import { defineTool, NOTHING, PURE_READ } from '../tool-definition';
import { scenarioContent } from './scenario-input';

const output = z.object({
  valid: z.boolean(),
  rulesDigest: z.string().nullable(),
  errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
});

export const validateSplitRule = defineTool({
  name: 'validate_split_rule',
  title: 'Validate split rules',
  description: 'Check scenario content (participants, tiers, periods) with the split engine; errors are located by JSON Pointer.',
  input: z.object({ content: scenarioContent }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: NOTHING,
  async run({ content }) {
    const validation = validateScenario(content);
    if (!validation.ok) return { ok: true, output: { valid: false, rulesDigest: null, errors: validation.errors } };
    return { ok: true, output: { valid: true, rulesDigest: rulesDigest(validation.scenario), errors: [] } };
  },
  render: (o) =>
    o.valid
      ? `Valid split rules (${o.rulesDigest}).`
      : `${o.errors.length} problem(s):\n${o.errors.map((e) => `${e.path || '/'}: ${e.message}`).join('\n')}`,
});
