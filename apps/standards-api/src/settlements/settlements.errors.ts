import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';
import type { ScenarioError } from '@stdreg/split-engine';

export const runNotFound = (id: string) => new DomainError(ErrorCode.NotFound, `Settlement run ${id} does not exist in this organization.`);
export const correctedRunNotFound = (id: string, projectId: string) =>
  new DomainError(ErrorCode.NotFound, `Settlement run ${id} is not a run of split project ${projectId}.`);

export const periodAlreadySettled = (periodId: string, standingRunId: string) =>
  new DomainError(
    ErrorCode.Conflict,
    `Period ${periodId} is already settled by run ${standingRunId}. A period is settled once; to correct it, post again with correctsRunId ${standingRunId}.`,
  );
export const periodSettledMeanwhile = (periodId: string) =>
  new DomainError(
    ErrorCode.Conflict,
    `Period ${periodId} was settled or corrected by another posting meanwhile; nothing was written. Read its runs and try again.`,
  );
export const runAlreadyCorrected = (runId: string, correctedBy: string) =>
  new DomainError(
    ErrorCode.Conflict,
    `Settlement run ${runId} was already corrected by run ${correctedBy}; a correction names the period's standing run.`,
  );
export const correctionOfAnotherPeriod = (runId: string, runPeriod: string, periodId: string) =>
  new DomainError(ErrorCode.DomainRuleViolated, `Settlement run ${runId} settled period ${runPeriod}, not ${periodId}.`, [
    { field: 'correctsRunId', message: `correctsRunId must name the standing run of period ${periodId}` },
  ]);

export const periodEndInFuture = () =>
  new DomainError(ErrorCode.DomainRuleViolated, 'periodEnd must not be in the future: only a period that has ended can be settled.', [
    { field: 'periodEnd', message: 'periodEnd must not be in the future' },
  ]);
export const invalidPeriodEnd = () =>
  new DomainError(ErrorCode.ValidationFailed, 'periodEnd is not a valid time.', [
    { field: 'periodEnd', message: 'periodEnd must be an RFC 3339 date-time' },
  ]);
export const noRuleVersionInForce = (projectId: string, at: Date) =>
  new DomainError(ErrorCode.DomainRuleViolated, `Split project ${projectId} has no rule version in force at ${at.toISOString()}.`, [
    { field: 'periodEnd', message: 'periodEnd must be at or after the start of Rule Version 1' },
  ]);

/** The split engine's located errors about the period's actuals, under the request field they belong to. */
export function invalidActuals(errors: ScenarioError[]): DomainError {
  const field = (path: string) => /^\/periods\/0\/(periodId|revenue|costs)$/.exec(path)?.[1] ?? path;
  return new DomainError(
    ErrorCode.DomainRuleViolated,
    "The period's actuals are not valid amounts of the project's currency.",
    errors.map((error) => ({ field: field(error.path), message: `${error.code}: ${error.message}` })),
  );
}

export const settlementChanged = () =>
  new DomainError(
    ErrorCode.Conflict,
    'What would be posted has changed since the challenge; the token is spent. Review the new challenge.',
  );
