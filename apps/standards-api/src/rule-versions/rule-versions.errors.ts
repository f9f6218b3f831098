import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

/** Identity already requires a person for formal writes; this is the service's own second check. */
export const humanRequired = (what: string) =>
  new DomainError(ErrorCode.Forbidden, `Not allowed: human_required. Only a signed-in person may ${what}; API keys and agents never may.`);

export const alreadyActivated = (projectId: string) =>
  new DomainError(ErrorCode.Conflict, `Split project ${projectId} is already activated: Rule Version 1 exists. Create a later rule version instead.`);
export const notActivated = (projectId: string) =>
  new DomainError(ErrorCode.Conflict, `Split project ${projectId} is not activated yet: activate it (Rule Version 1) before creating later versions.`);

export const scenarioOfAnotherProject = (scenarioId: string, projectId: string) =>
  new DomainError(ErrorCode.NotFound, `Operating scenario ${scenarioId} is not a scenario of split project ${projectId}.`);
export const notCurrentRevision = (scenarioId: string, revision: number, current: number) =>
  new DomainError(ErrorCode.Conflict, `Revision ${revision} is not the current revision of scenario ${scenarioId} (it is ${current}); activation takes the current content.`);
export const ruleVersionNotFound = (projectId: string, version: number) =>
  new DomainError(ErrorCode.NotFound, `Split project ${projectId} has no rule version ${version}.`);

export const effectiveFromInPast = () =>
  new DomainError(ErrorCode.DomainRuleViolated, 'effectiveFrom must not be in the past.', [
    { field: 'effectiveFrom', message: 'effectiveFrom must be in the future' },
  ]);
export const effectiveFromNotAfterLatest = (version: number, latest: Date) =>
  new DomainError(ErrorCode.DomainRuleViolated, `effectiveFrom must be after the start of rule version ${version}, ${latest.toISOString()}.`, [
    { field: 'effectiveFrom', message: `effectiveFrom must be after ${latest.toISOString()}` },
  ]);

// Token refusals: a token that is not the caller's is 403 (and stays unspent, so nobody can burn another
// person's token); a token that was the caller's but can no longer be used is 409.
export const tokenNotYours = () =>
  new DomainError(ErrorCode.Forbidden, 'The confirmation token was not issued to you for this project. Ask for a new challenge by calling without a token.');
export const tokenUsed = () =>
  new DomainError(ErrorCode.Conflict, 'The confirmation token has already been used. Ask for a new challenge by calling without a token.');
export const tokenExpired = () =>
  new DomainError(ErrorCode.Conflict, 'The confirmation token has expired. Ask for a new challenge by calling without a token.');
export const tokenForOtherRequest = () =>
  new DomainError(ErrorCode.Conflict, 'The confirmation token confirms another scenario, revision or effective time than this request names.');
export const contentChanged = () =>
  new DomainError(ErrorCode.Conflict, 'The scenario has changed since the challenge; the token is spent. Review the new content and ask for a new challenge.');

export const confirmationRequired = (challenge: Record<string, unknown>, confirmationToken: string) =>
  new DomainError(
    ErrorCode.ConfirmationRequired,
    'Activation needs your explicit confirmation: review the challenge, then call again with confirmationToken.',
    undefined,
    undefined,
    { challenge, confirmationToken },
  );
