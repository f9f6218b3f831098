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

export const scenarioNotChanged = (etag: string) =>
  DomainError.of(
    'scenarios.not_changed',
    `If-None-Match names the scenario's current revision (its ETag is ${etag}) or is *: nothing was changed.`,
  );

export const templateUnknown = (templateVersion: string) =>
  DomainError.of('split_projects.template_unknown', `The registry has no split template ${templateVersion}.`, {
    errors: [{ field: 'templateVersion', message: 'templateVersion must name a split template of the registry' }],
  });

export const patchNotObject = () => DomainError.of('scenarios.patch_not_object', 'The body must be a JSON Merge Patch object.');

export const currencyMismatch = (scenarioCurrency: string, projectCurrency: string, field: string) =>
  DomainError.of('scenarios.currency_mismatch', `The scenario is in ${scenarioCurrency}; the project is in ${projectCurrency}.`, {
    errors: [{ field: `${field}/currency`, message: `currency must be the project's currency, ${projectCurrency}` }],
  });

// Each bound is what a drafting loop (an agent's, a key's) can leave behind until someone discards or activates.
export const draftLimitReached = (limit: number) =>
  DomainError.of(
    'split_projects.draft_limit_reached',
    `The organization has its maximum of ${limit} split projects not yet activated (SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION): work on an existing draft, discard one no longer needed (DELETE /split-projects/{id}), or ask the operator to raise the limit.`,
  );

export const notADraft = (id: string) =>
  DomainError.of(
    'split_projects.not_a_draft',
    `Split project ${id} was activated (a rule version was made of it): it is no longer a draft and cannot be discarded.`,
  );

/** An agent or a key may discard only what it drafted itself; a person may discard any draft of the organization. */
export const discardNotYours = (id: string) =>
  DomainError.of(
    'split_projects.discard_not_yours',
    `Split project ${id} was created by someone else: an agent or an API key may discard only the drafts it created itself; a person of the organization may discard it.`,
  );

export const scenarioLimitReached = (projectId: string, limit: number) =>
  DomainError.of(
    'scenarios.limit_reached',
    `Split project ${projectId} has its maximum of ${limit} operating scenarios (SPLIT_PROJECT_MAX_SCENARIOS): revise an existing scenario instead.`,
  );

export const revisionLimitReached = (scenarioId: string, limit: number) =>
  DomainError.of(
    'scenarios.revision_limit_reached',
    `Operating scenario ${scenarioId} has its maximum of ${limit} revisions (SCENARIO_MAX_REVISIONS): branch a new scenario from it.`,
  );
