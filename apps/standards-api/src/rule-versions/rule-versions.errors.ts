import { DomainError } from '@stdreg/server-kit';

export const alreadyActivated = (projectId: string) =>
  DomainError.of(
    'rule_versions.already_activated',
    `Split project ${projectId} is already activated: Rule Version 1 exists. Create a later rule version instead.`,
  );
export const notActivated = (projectId: string) =>
  DomainError.of(
    'rule_versions.not_activated',
    `Split project ${projectId} is not activated yet: activate it (Rule Version 1) before creating later versions.`,
  );

export const scenarioOfAnotherProject = (scenarioId: string, projectId: string) =>
  DomainError.of(
    'rule_versions.scenario_not_in_project',
    `Operating scenario ${scenarioId} is not a scenario of split project ${projectId}.`,
  );
export const notCurrentRevision = (scenarioId: string, revision: number, current: number) =>
  DomainError.of(
    'rule_versions.revision_not_current',
    `Revision ${revision} is not the current revision of scenario ${scenarioId} (it is ${current}); activation takes the current content.`,
  );
export const ruleVersionNotFound = (projectId: string, version: number) =>
  DomainError.of('rule_versions.not_found', `Split project ${projectId} has no rule version ${version}.`);

export const effectiveFromInPast = () =>
  DomainError.of('rule_versions.effective_from_in_past', 'effectiveFrom must not be in the past.', {
    errors: [{ field: 'effectiveFrom', message: 'effectiveFrom must be in the future' }],
  });
export const effectiveFromNotAfterLatest = (version: number, latest: Date) =>
  DomainError.of(
    'rule_versions.effective_from_too_early',
    `effectiveFrom must be after the start of rule version ${version}, ${latest.toISOString()}.`,
    { errors: [{ field: 'effectiveFrom', message: `effectiveFrom must be after ${latest.toISOString()}` }] },
  );

export const contentChanged = () =>
  DomainError.of(
    'rule_versions.scenario_changed',
    'The scenario has changed since the challenge; the token is spent. Review the new content and ask for a new challenge.',
  );

export const effectiveFromInvalid = () =>
  DomainError.of('rule_versions.effective_from_invalid', 'effectiveFrom is not a valid time.', {
    errors: [{ field: 'effectiveFrom', message: 'effectiveFrom must be an RFC 3339 date-time' }],
  });

export const invalidCursor = () =>
  DomainError.of('rule_versions.cursor_invalid', 'The cursor is not valid for this list.', {
    errors: [{ field: 'cursor', message: 'cursor must be a nextCursor value from this list' }],
  });
