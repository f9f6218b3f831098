import { formatMoney, formatSettlement, parseTotal, settlePeriod, settleScenario } from '@stdreg/split-engine';
import { z } from 'zod';
import { defineTool, NOTHING, PURE_READ } from '../tool-definition';
import { failure } from '../shared-schemas';
import { periodIdInput, periodSettlement, readScenarioPeriod, scenarioContent, scenarioSettlement } from './scenario-input';

const output = z.object({
  posted: z.literal(false),
  settlement: z.discriminatedUnion('kind', [periodSettlement, scenarioSettlement]),
});

export const calculateDraftSettlement = defineTool({
  name: 'calculate_draft_settlement',
  title: 'Calculate a draft settlement',
  description: 'What the rules pay each participant, for one period or all; exact minor units. Never posted.',
  input: z.object({ content: scenarioContent, periodId: periodIdInput('Default: every period') }).strict(),
  output,
  annotations: PURE_READ,
  scope: 'registry:read',
  uses: NOTHING,
  async run({ content, periodId }) {
    const read = readScenarioPeriod(content, periodId);
    if (!read.ok) return failure(read.message);
    const { scenario } = read;
    const settlement =
      periodId === undefined ? formatSettlement(settleScenario(scenario)) : formatSettlement(settlePeriod(scenario, periodId));
    return { ok: true, output: { posted: false as const, settlement } };
  },
  render: ({ settlement }) => {
    const scope = settlement.kind === 'period' ? `period ${settlement.periodId}` : `${settlement.periods.length} period(s)`;
    const money = (amount: string) => formatMoney(parseTotal(amount, settlement.currency), settlement.currency);
    return [
      `Draft settlement (not posted), ${scope}: distributable ${money(settlement.distributable)}`,
      ...settlement.participants.map((p) => `${p.participantId}: ${money(p.total)}`),
    ].join('\n');
  },
});
