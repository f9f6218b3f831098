import { DomainError } from '@stdreg/server-kit';
import type { ScenarioError } from '@stdreg/split-engine';

export const runNotFound = (id: string) =>
  DomainError.of('settlements.run_not_found', `Settlement run ${id} does not exist in this organization.`);
export const correctedRunNotFound = (id: string, projectId: string) =>
  DomainError.of('settlements.corrected_run_not_in_project', `Settlement run ${id} is not a run of split project ${projectId}.`);

export const periodAlreadySettled = (periodId: string, standingRunId: string) =>
  DomainError.of(
    'settlements.period_already_settled',
    `Period ${periodId} is already settled by run ${standingRunId}. A period is settled once; to correct it, post again with correctsRunId ${standingRunId}.`,
  );
export const periodSettledMeanwhile = (periodId: string) =>
  DomainError.of(
    'settlements.period_settled_meanwhile',
    `Period ${periodId} was settled or corrected by another posting meanwhile; nothing was written. Read its runs and try again.`,
  );
export const runAlreadyCorrected = (runId: string, correctedBy: string) =>
  DomainError.of(
    'settlements.run_already_corrected',
    `Settlement run ${runId} was already corrected by run ${correctedBy}; a correction names the period's standing run.`,
  );
export const correctionOfAnotherPeriod = (runId: string, runPeriod: string, periodId: string) =>
  DomainError.of('settlements.correction_of_other_period', `Settlement run ${runId} settled period ${runPeriod}, not ${periodId}.`, {
    errors: [{ field: 'correctsRunId', message: `correctsRunId must name the standing run of period ${periodId}` }],
  });

export const periodEndInFuture = () =>
  DomainError.of('settlements.period_not_ended', 'periodEnd must not be in the future: only a period that has ended can be settled.', {
    errors: [{ field: 'periodEnd', message: 'periodEnd must not be in the future' }],
  });
export const invalidPeriodEnd = () =>
  DomainError.of('settlements.period_end_invalid', 'periodEnd is not a valid time.', {
    errors: [{ field: 'periodEnd', message: 'periodEnd must be an RFC 3339 date-time' }],
  });
export const noRuleVersionInForce = (projectId: string, at: Date) =>
  DomainError.of(
    'settlements.no_rule_version_in_force',
    `Split project ${projectId} has no rule version in force at ${at.toISOString()}.`,
    { errors: [{ field: 'periodEnd', message: 'periodEnd must be at or after the start of Rule Version 1' }] },
  );

/** The split engine's located errors about the period's actuals, under the request field they belong to. */
export function invalidActuals(errors: ScenarioError[]): DomainError {
  const field = (path: string) => /^\/periods\/0\/(periodId|revenue|costs)$/.exec(path)?.[1] ?? path;
  return DomainError.of('settlements.actuals_invalid', "The period's actuals are not valid amounts of the project's currency.", {
    errors: errors.map((error) => ({ field: field(error.path), message: `${error.code}: ${error.message}` })),
  });
}

export const settlementChanged = () =>
  DomainError.of(
    'settlements.changed',
    'What would be posted has changed since the challenge; the token is spent. Review the new challenge.',
  );

export const invalidCursor = () =>
  DomainError.of('settlements.cursor_invalid', 'The cursor is not valid for this list.', {
    errors: [{ field: 'cursor', message: 'cursor must be a nextCursor value from this list' }],
  });

export const legalEntityIdTooLong = (maxLength: number) =>
  DomainError.of('ledgers.legal_entity_id_too_long', 'The legal entity id is too long.', {
    errors: [{ field: 'legalEntityId', message: `legalEntityId must be at most ${maxLength} characters` }],
  });

export const timeRangeEmpty = () =>
  DomainError.of('ledgers.time_range_empty', 'The time range is empty.', {
    errors: [{ field: 'to', message: 'to must not be before from' }],
  });
