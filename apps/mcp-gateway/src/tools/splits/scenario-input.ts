// Scenario content as tools take it, validated by the split engine with located errors.
import { validateScenario, type ScenarioContent } from '@stdreg/split-engine';
import { z } from 'zod';
import { localized } from '../shared-schemas';

export const scenarioContent = z
  .record(z.string(), z.unknown())
  .describe(
    'Scenario content: {currency, periods[{periodId, revenue, costs}], participants[{participantId, name{en,zh-Hans}, legalEntityId}], tiers[fixed then percentage]}; amounts are decimal strings',
  );

export type ScenarioRead = { ok: true; scenario: ScenarioContent } | { ok: false; message: string };

export function readScenario(content: unknown, label = 'scenario'): ScenarioRead {
  const validation = validateScenario(content);
  if (validation.ok) return validation;
  const errors = validation.errors.slice(0, 10).map((error) => `${label}${error.path || ''}: ${error.message}`);
  return { ok: false, message: `Invalid ${label} content (${validation.errors.length} error(s)): ${errors.join('; ')}.` };
}

/** Scenario content read for a settlement of one period (when periodId is given) or of all. */
export function readScenarioPeriod(content: unknown, periodId: string | undefined): ScenarioRead {
  const read = readScenario(content);
  if (!read.ok || periodId === undefined || read.scenario.periods.some((p) => p.periodId === periodId)) return read;
  return { ok: false, message: `No period ${periodId}; periods: ${read.scenario.periods.map((p) => p.periodId).join(', ')}.` };
}

export const periodIdInput = (all: string) => z.string().min(1).max(40).optional().describe(all);

const amount = z.string().describe('Decimal amount in the currency');
const participantTotal = z.object({ participantId: z.string(), total: amount });
const flow = { tierId: z.string(), label: localized, available: amount, paid: amount, passedOn: amount };

export const periodSettlement = z.object({
  kind: z.literal('period'),
  currency: z.string(),
  periodId: z.string(),
  revenue: amount,
  costs: amount,
  distributable: amount,
  tiers: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        ...flow,
        kind: z.literal('fixed'),
        payments: z.array(z.object({ participantId: z.string(), due: amount, paid: amount })),
      }),
      z.object({
        ...flow,
        kind: z.literal('percentage'),
        capAmount: amount.nullable(),
        payments: z.array(z.object({ participantId: z.string(), basisPoints: z.int(), paid: amount, roundingUnits: z.int() })),
      }),
    ]),
  ),
  participants: z.array(participantTotal),
});

export const scenarioSettlement = z.object({
  kind: z.literal('scenario'),
  currency: z.string(),
  periods: z.array(periodSettlement),
  revenue: amount,
  costs: amount,
  distributable: amount,
  participants: z.array(participantTotal),
});
