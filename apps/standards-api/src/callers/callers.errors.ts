import { MAX_CREDENTIAL_LENGTH, MAX_RESOURCE_ID_LENGTH } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

const REALM = 'Bearer realm="standards-api"';

export const credentialMissing = () =>
  DomainError.of('authorization.credential_missing', 'A credential is required: Authorization: Bearer <API key or access token>.', {
    headers: { 'WWW-Authenticate': REALM },
  });

export const organizationMissing = () =>
  DomainError.of('authorization.organization_missing', 'Name the organization the request acts in.', {
    errors: [{ field: 'X-Organization-Id', message: 'X-Organization-Id must be an organization id (uuid)' }],
  });

export const credentialTooLong = () =>
  DomainError.of(
    'authorization.credential_too_long',
    `The credential is longer than any the platform issues (${MAX_CREDENTIAL_LENGTH} characters).`,
    { headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` } },
  );

/** Answered before identity is asked: no project has such an id, so it is split-projects' own not-found. */
export const projectIdTooLong = () =>
  DomainError.of('split_projects.not_found', `No split project has an id longer than ${MAX_RESOURCE_ID_LENGTH} characters.`);

export const authorizationUnavailable = () =>
  DomainError.of('authorization.unavailable', 'Authorization could not be established; nothing was done. Retry later.');

export const credentialInvalid = () =>
  DomainError.of(
    'authorization.credential_invalid',
    'The credential is not valid (invalid_credential): unknown, expired, revoked or for another audience.',
    { headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` } },
  );

export const denied = (reason: string) => DomainError.of('authorization.denied', `Not allowed: ${reason}.`);

/** Identity already requires a person for formal writes; this is the service's own second check. */
export const humanRequired = (what: string) =>
  DomainError.of(
    'authorization.human_required',
    `Not allowed: human_required. Only a signed-in person may ${what}; API keys and agents never may.`,
  );

/**
 * identity denied a formal write because the person signed in too long ago: RFC 9470's step-up
 * challenge, so the partner app sends the person back through sign-in (`max_age`, or `prompt=login`).
 */
export function recentSignInRequired(maxAge: number | undefined): DomainError {
  const within = maxAge === undefined ? 'recently' : `within the last ${maxAge} seconds`;
  const challenge = [
    'error="insufficient_user_authentication"',
    'error_description="A more recent sign-in is required for this formal write"',
    ...(maxAge === undefined ? [] : [`max_age=${maxAge}`]),
  ].join(', ');
  return DomainError.of(
    'authorization.authentication_too_old',
    `Not allowed: authentication_too_old. This formal write needs a person who signed in ${within}: sign in again and retry.`,
    { headers: { 'WWW-Authenticate': `Bearer ${challenge}` } },
  );
}
