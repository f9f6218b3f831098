import type { ScenarioContent } from '../scenario/scenario-content';
import { settlePeriod } from './settle-period';
import type { ParticipantTotal, ScenarioSettlement } from './settlement';

/** Settles every period of the scenario and sums them, per participant and overall. */
export function settleScenario(scenario: ScenarioContent): ScenarioSettlement {
  const periods = scenario.periods.map((period) => settlePeriod(scenario, period.periodId));
  const sum = (pick: (period: (typeof periods)[number]) => bigint): bigint => periods.reduce((total, period) => total + pick(period), 0n);
  const totals = new Map(scenario.participants.map((participant) => [participant.participantId, 0n]));
  for (const period of periods) {
    for (const { participantId, total } of period.participants) totals.set(participantId, (totals.get(participantId) ?? 0n) + total);
  }
  const participants: ParticipantTotal[] = [...totals].map(([participantId, total]) => ({ participantId, total }));
  return {
    kind: 'scenario',
    currency: scenario.currency,
    periods,
    revenue: sum((period) => period.revenue),
    costs: sum((period) => period.costs),
    distributable: sum((period) => period.distributable),
    participants,
  };
}
