import { DomainError } from '@stdreg/server-kit';
import type { ScenarioError } from '@stdreg/split-engine';

export const projectNotFound = (id: string) =>
  DomainError.of('split_projects.not_found', `Split project ${id} does not exist in this organization.`);
export const scenarioNotFound = (id: string) =>
  DomainError.of('scenarios.not_found', `Operating scenario ${id} does not exist in this organization.`);
export const revisionNotFound = (id: string, revision: number) =>
  DomainError.of('scenarios.revision_not_found', `Operating scenario ${id} has no revision ${revision}.`);

/** The split engine's located errors, under the request field they belong to. */
export function invalidScenario(errors: ScenarioError[], field: string): DomainError {
  return DomainError.of('scenarios.rules_broken', 'The scenario content breaks the split rules.', {
    errors: errors.map((error) => ({ field: `${field}${error.path}`, message: `${error.code}: ${error.message}` })),
  });
}

export const staleScenario = (etag: string) =>
  DomainError.of('scenarios.changed', `The scenario has changed: its ETag is now ${etag}. Read it again and reapply your change.`);
