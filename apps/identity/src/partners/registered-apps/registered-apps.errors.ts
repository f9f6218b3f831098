import { DomainError } from '@stdreg/server-kit';

// The registered apps' refusals (codes and categories declared in IDENTITY_ERRORS).

/** Also what a mirror write answers when its registry's app went away meanwhile. */
export function appNotFound(registryId: string): DomainError {
  return DomainError.of('apps.not_found', `Registry ${registryId} does not exist or is not bound to this key.`);
}

export function registeringKeyRevoked(): DomainError {
  return DomainError.of('apps.key_revoked', 'The key was revoked.');
}

export function appLimitReached(maxApps: number): DomainError {
  return DomainError.of('apps.limit_reached', `This key has registered its maximum of ${maxApps} apps (maxApps).`);
}
