import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';
import type { ScenarioError } from '@stdreg/split-engine';

export const projectNotFound = (id: string) =>
  new DomainError(ErrorCode.NotFound, `Split project ${id} does not exist in this organization.`);
export const scenarioNotFound = (id: string) =>
  new DomainError(ErrorCode.NotFound, `Operating scenario ${id} does not exist in this organization.`);
export const revisionNotFound = (id: string, revision: number) =>
  new DomainError(ErrorCode.NotFound, `Operating scenario ${id} has no revision ${revision}.`);

/** The split engine's located errors, under the request field they belong to. */
export function invalidScenario(errors: ScenarioError[], field: string): DomainError {
  return new DomainError(
    ErrorCode.DomainRuleViolated,
    'The scenario content breaks the split rules.',
    errors.map((error) => ({ field: `${field}${error.path}`, message: `${error.code}: ${error.message}` })),
  );
}

export const staleScenario = (etag: string) =>
  new DomainError(
    ErrorCode.PreconditionFailed,
    `The scenario has changed: its ETag is now ${etag}. Read it again and reapply your change.`,
  );
