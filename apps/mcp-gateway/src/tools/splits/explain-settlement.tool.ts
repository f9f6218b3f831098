import { explainSettlement as explainSteps, settlePeriod, settleScenario } from '@stdreg/split-engine';
import { z } from 'zod';
import { defineTool, NOTHING, PURE_READ } from '../tool-definition';
import { failure, localized } from '../shared-schemas';
import { periodIdInput, readScenarioPeriod, scenarioContent } from './scenario-input';

const output = z.object({
  currency: z.string(),
  periodId: z.string().nullable(),
  steps: z.array(
    z.object({
      kind: z.enum(['distributable', 'fixed_payment', 'percentage_split', 'totals']),
      text: localized,
      facts: z.record(z.string(), z.unknown()).describe('Amounts as decimal strings'),
    }),
  ),
});

export const explainSettlement = defineTool({
  name: 'explain_settlement',
  title: 'Explain a settlement',
  description: 'Step-by-step explanation of a draft settlement, in English and Chinese, with the facts of each step.',
  input: z.object({ content: scenarioContent, periodId: periodIdInput('Default: every period, then totals') }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: NOTHING,
  async run({ content, periodId }) {
    const read = readScenarioPeriod(content, periodId);
    if (!read.ok) return failure(read.message);
    const { scenario } = read;
    const steps = explainSteps(periodId === undefined ? settleScenario(scenario) : settlePeriod(scenario, periodId));
    return {
      ok: true,
      output: {
        currency: scenario.currency,
        periodId: periodId ?? null,
        steps: steps.map(({ kind, text, ...facts }) => ({ kind, text, facts })),
      },
    };
  },
  render: (o) => o.steps.map((step, i) => `${i + 1}. ${step.text.en}\n   ${step.text['zh-Hans']}`).join('\n'),
});
