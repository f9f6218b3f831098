import { formatAmount, formatMoney, formatSettlement, parseAmount, parseTotal, settleScenario } from '@stdreg/split-engine';
import { z } from 'zod';
import { defineTool, NOTHING, PURE_READ } from '../tool-definition';
import { failure } from '../shared-schemas';
import { readScenario, scenarioContent } from './scenario-input';

const amount = z.string().regex(/^[0-9]+(\.[0-9]+)?$/, 'must be a decimal amount like 1200.50');
const participantTotal = z.object({ participantId: z.string(), total: z.string() });

const output = z.object({
  currency: z.string(),
  projected: z.boolean(),
  periods: z.array(
    z.object({
      periodId: z.string(),
      revenue: z.string(),
      costs: z.string(),
      distributable: z.string(),
      allocations: z.array(participantTotal),
    }),
  ),
  totals: z.object({ revenue: z.string(), costs: z.string(), distributable: z.string(), allocations: z.array(participantTotal) }),
});

const projection = z
  .object({
    startMonth: z.string().regex(/^[0-9]{4}-(0[1-9]|1[0-2])$/, 'must look like 2026-01'),
    months: z.int().min(1).max(120),
    revenue: amount.describe('Revenue of the first month'),
    costs: amount.describe('Costs of the first month'),
    revenueGrowthBasisPoints: z.int().min(-10000).max(100000).default(0).describe('Month-on-month change, 100 = 1%'),
    costGrowthBasisPoints: z.int().min(-10000).max(100000).default(0),
  })
  .strict();

function monthAfter(start: string, offset: number): string {
  const [year, month] = start.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Monthly periods grown by compound basis points, rounded down to the minor unit. */
function projectPeriods(plan: z.output<typeof projection>, currency: string) {
  let revenue = parseAmount(plan.revenue, currency);
  let costs = parseAmount(plan.costs, currency);
  const periods = [];
  for (let i = 0; i < plan.months; i++) {
    periods.push({
      periodId: monthAfter(plan.startMonth, i),
      revenue: formatAmount(revenue, currency),
      costs: formatAmount(costs, currency),
    });
    revenue = (revenue * BigInt(10000 + plan.revenueGrowthBasisPoints)) / 10000n;
    costs = (costs * BigInt(10000 + plan.costGrowthBasisPoints)) / 10000n;
  }
  return periods;
}

export const simulateOperatingPlan = defineTool({
  name: 'simulate_operating_plan',
  title: 'Simulate an operating plan',
  description: "Project revenue, costs and each participant's allocation per period for a scenario, optionally over grown monthly figures.",
  input: z
    .object({
      content: scenarioContent,
      projection: projection.optional().describe("Replaces the scenario's periods with projected months"),
    })
    .strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: NOTHING,
  async run({ content, projection: plan }) {
    let planned: unknown = content;
    if (plan !== undefined) {
      const currency = typeof content['currency'] === 'string' ? content['currency'] : '';
      try {
        planned = { ...content, periods: projectPeriods(plan, currency) };
      } catch (error) {
        return failure(`Invalid projection: ${error instanceof Error ? error.message : String(error)}.`);
      }
    }
    const read = readScenario(planned);
    if (!read.ok) return failure(read.message);
    const settled = formatSettlement(settleScenario(read.scenario));
    return {
      ok: true,
      output: {
        currency: settled.currency,
        projected: plan !== undefined,
        periods: settled.periods.map((p) => ({
          periodId: p.periodId,
          revenue: p.revenue,
          costs: p.costs,
          distributable: p.distributable,
          allocations: p.participants,
        })),
        totals: { revenue: settled.revenue, costs: settled.costs, distributable: settled.distributable, allocations: settled.participants },
      },
    };
  },
  render: (o) => {
    const money = (value: string) => formatMoney(parseTotal(value, o.currency), o.currency);
    return [
      `${o.periods.length} period(s): revenue ${money(o.totals.revenue)}, costs ${money(o.totals.costs)}, distributable ${money(o.totals.distributable)}`,
      ...o.totals.allocations.map((a) => `${a.participantId}: ${money(a.total)}`),
    ].join('\n');
  },
});
