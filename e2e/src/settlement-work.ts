// The human posts one period's settlement (a formal write, two steps) and the studio's equity ledger
// shows its entry.
import type { EquityLedgerPageDto, SettlementRunDto } from '@stdreg/contracts';
import { call } from './http';
import { confirmTwice, type DraftedProject } from './split-project-work';
import { expectHumanAuthor, type Story } from './story';

export async function postSettlement(
  story: Story,
  humanToken: string,
  organizationId: string,
  project: DraftedProject,
  uid: string,
): Promise<SettlementRunDto> {
  const actor = `user ${uid}`;
  const api = `${story.platform.standardsApiUrl}/api/v2`;
  const posted = await confirmTwice<SettlementRunDto>(
    `${api}/split-projects/${project.projectId}/settlement-runs`,
    humanToken,
    organizationId,
    {
      periodId: '2026-01',
      periodEnd: new Date().toISOString(),
      revenue: '10000.00',
      costs: '1200.00',
    },
  );
  const run = posted.result;
  expectHumanAuthor(run.postedBy, uid, 'the settlement run');
  const ledger = await call<EquityLedgerPageDto>('GET', `${api}/equity-ledgers/LEI-WALK-STUDIO`, {
    token: humanToken,
    organizationId,
    expect: 200,
  });
  const entry = ledger.body.entries.find((candidate) => candidate.settlementRunId === run.id);
  if (!entry) throw new Error('the posted run has no entry in the studio ledger');
  story.step('settlement posted after the two-step confirmation', {
    actor,
    runId: run.id,
    postedBy: run.postedBy,
    distributable: run.distributable,
    studioEntry: entry.amount,
  });
  return run;
}
