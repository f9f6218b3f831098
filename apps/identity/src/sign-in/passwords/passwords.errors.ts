import { DomainError } from '@stdreg/server-kit';

// The password API's refusals; the pages answer with pages instead (codes and categories declared in IDENTITY_ERRORS).

export function noUnifiedUser(mirrorId: string): DomainError {
  return DomainError.of('passwords.no_unified_user', `User ${mirrorId} has no unified user.`);
}

export function userSharedWithOtherApps(): DomainError {
  return DomainError.of(
    'passwords.user_shared_with_other_apps',
    'This user also belongs to apps outside this key; only a platform key can issue its password link.',
  );
}

export function loginEmailTaken(): DomainError {
  return DomainError.of('passwords.login_email_taken', 'Another user already signs in with this email address.');
}

/** Whoever holds a password link sets the person's password and signs in as them: an agent never may (AGT-1). */
export function agentKeyRefused(): DomainError {
  return DomainError.of(
    'passwords.agent_key_refused',
    "An agent's key cannot issue a password link: it would let the agent sign in as the person. Ask the partner app's key or an operator.",
  );
}
