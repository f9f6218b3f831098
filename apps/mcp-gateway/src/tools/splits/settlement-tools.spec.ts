// The draft settlement tools render totals over many periods, which may have more integer digits than one amount.
import { sampleScenario } from '@stdreg/server-kit/testing';
import type { ToolCollaborators } from '../tool-definition';
import { calculateDraftSettlement } from './calculate-draft-settlement.tool';
import { simulateOperatingPlan } from './simulate-operating-plan.tool';

const LARGEST_AMOUNT = '999999999999999999.99';
const noCollaborators = {} as ToolCollaborators;

describe('draft settlement tools at the largest amounts', () => {
  it('calculate_draft_settlement renders totals over periods beyond 18 integer digits, exactly', async () => {
    const content = sampleScenario();
    content['periods'] = [
      { periodId: '2026-01', revenue: LARGEST_AMOUNT, costs: '0' },
      { periodId: '2026-02', revenue: LARGEST_AMOUNT, costs: '0' },
    ];
    const result = await calculateDraftSettlement.invoke({ content }, noCollaborators);
    expect(result).toMatchObject({ kind: 'done', output: { settlement: { distributable: '1999999999999999999.98' } } });
    expect(result.kind === 'done' && result.text).toContain('distributable 1999999999999999999.98 EUR');
  });

  it('simulate_operating_plan renders projected totals beyond 18 integer digits, exactly', async () => {
    const projection = { startMonth: '2026-01', months: 3, revenue: LARGEST_AMOUNT, costs: '0' };
    const result = await simulateOperatingPlan.invoke({ content: sampleScenario(), projection }, noCollaborators);
    expect(result).toMatchObject({ kind: 'done', output: { totals: { revenue: '2999999999999999999.97' } } });
    expect(result.kind === 'done' && result.text).toContain('revenue 2999999999999999999.97 EUR');
  });
});
