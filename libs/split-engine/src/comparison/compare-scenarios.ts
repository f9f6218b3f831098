// Side-by-side projected totals of 2 to 4 scenarios, and each one's differences against the first.
import { SplitEngineError } from '../errors';
import { formatAmount } from '../money/decimal-amount';
import type { DecimalAmount, ScenarioContent } from '../scenario/scenario-content';
import { settleScenario } from '../settlement/settle-scenario';
import type { ScenarioSettlement } from '../settlement/settlement';

export const MIN_COMPARED_SCENARIOS = 2;
export const MAX_COMPARED_SCENARIOS = 4;

export interface LabelledScenario {
  label: string;
  scenario: ScenarioContent;
}

/** An amount both ways: exact minor units for computing, the decimal string for the wire. */
export interface ComparedAmount {
  minorUnits: bigint;
  amount: DecimalAmount;
}

export interface ScenarioComparison {
  currency: string;
  /** In the order given; the first is the baseline. */
  scenarios: ComparedScenario[];
  /** Every participant of any scenario, by participantId ascending. */
  participants: ComparedParticipant[];
}

export interface ComparedScenario {
  label: string;
  periods: number;
  distributable: ComparedAmount;
  /** distributable − the first scenario's distributable. */
  difference: ComparedAmount;
}

export interface ComparedParticipant {
  participantId: string;
  /** One column per scenario, in the order of `scenarios`. */
  columns: ParticipantColumn[];
}

export interface ParticipantColumn {
  label: string;
  /** False when this scenario does not list the participant (its total is then 0). */
  present: boolean;
  total: ComparedAmount;
  /** total − the first scenario's total for this participant. */
  difference: ComparedAmount;
}

/** Throws SplitEngineError `comparison_size` outside 2..4 scenarios, `currency_mismatch` when currencies differ. */
export function compareScenarios(scenarios: readonly LabelledScenario[]): ScenarioComparison {
  const [first] = scenarios;
  if (first === undefined || scenarios.length < MIN_COMPARED_SCENARIOS || scenarios.length > MAX_COMPARED_SCENARIOS) {
    throw new SplitEngineError(
      'comparison_size',
      `a comparison takes ${MIN_COMPARED_SCENARIOS} to ${MAX_COMPARED_SCENARIOS} scenarios, got ${scenarios.length}`,
    );
  }
  const { currency } = first.scenario;
  const other = scenarios.find(({ scenario }) => scenario.currency !== currency);
  if (other !== undefined) {
    throw new SplitEngineError(
      'currency_mismatch',
      `scenario "${other.label}" is in ${other.scenario.currency}, the first is in ${currency}; compared scenarios share one currency`,
    );
  }
  const baseline = settleScenario(first.scenario);
  const settled = scenarios.map(({ label, scenario }) => ({
    label,
    settlement: scenario === first.scenario ? baseline : settleScenario(scenario),
  }));
  const money = (minorUnits: bigint): ComparedAmount => ({ minorUnits, amount: formatAmount(minorUnits, currency) });

  const participantIds = [...new Set(settled.flatMap(({ settlement }) => settlement.participants.map((p) => p.participantId)))].sort(
    byCodeUnits,
  );
  return {
    currency,
    scenarios: settled.map(({ label, settlement }) => ({
      label,
      periods: settlement.periods.length,
      distributable: money(settlement.distributable),
      difference: money(settlement.distributable - baseline.distributable),
    })),
    participants: participantIds.map((participantId) => {
      const baselineTotal = totalOf(baseline, participantId) ?? 0n;
      return {
        participantId,
        columns: settled.map(({ label, settlement }) => {
          const total = totalOf(settlement, participantId);
          return { label, present: total !== undefined, total: money(total ?? 0n), difference: money((total ?? 0n) - baselineTotal) };
        }),
      };
    }),
  };
}

function totalOf(settlement: ScenarioSettlement, participantId: string): bigint | undefined {
  return settlement.participants.find((participant) => participant.participantId === participantId)?.total;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
