import { DomainError } from '@stdreg/server-kit';

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
