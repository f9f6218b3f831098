import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

export const alreadyActivated = (projectId: string) =>
  new DomainError(
    ErrorCode.Conflict,
    `Split project ${projectId} is already activated: Rule Version 1 exists. Create a later rule version instead.`,
  );
export const notActivated = (projectId: string) =>
  new DomainError(
    ErrorCode.Conflict,
    `Split project ${projectId} is not activated yet: activate it (Rule Version 1) before creating later versions.`,
  );

export const scenarioOfAnotherProject = (scenarioId: string, projectId: string) =>
  new DomainError(ErrorCode.NotFound, `Operating scenario ${scenarioId} is not a scenario of split project ${projectId}.`);
export const notCurrentRevision = (scenarioId: string, revision: number, current: number) =>
  new DomainError(
    ErrorCode.Conflict,
    `Revision ${revision} is not the current revision of scenario ${scenarioId} (it is ${current}); activation takes the current content.`,
  );
export const ruleVersionNotFound = (projectId: string, version: number) =>
  new DomainError(ErrorCode.NotFound, `Split project ${projectId} has no rule version ${version}.`);

export const effectiveFromInPast = () =>
  new DomainError(ErrorCode.DomainRuleViolated, 'effectiveFrom must not be in the past.', [
    { field: 'effectiveFrom', message: 'effectiveFrom must be in the future' },
  ]);
export const effectiveFromNotAfterLatest = (version: number, latest: Date) =>
  new DomainError(
    ErrorCode.DomainRuleViolated,
    `effectiveFrom must be after the start of rule version ${version}, ${latest.toISOString()}.`,
    [{ field: 'effectiveFrom', message: `effectiveFrom must be after ${latest.toISOString()}` }],
  );

export const contentChanged = () =>
  new DomainError(
    ErrorCode.Conflict,
    'The scenario has changed since the challenge; the token is spent. Review the new content and ask for a new challenge.',
  );
