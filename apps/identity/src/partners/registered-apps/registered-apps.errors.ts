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

/** An app's sign-in client receives people's own tokens, never marked as an agent's: an agent never registers one (AGT-1). */
export function agentKeyRefused(): DomainError {
  return DomainError.of(
    'apps.agent_key_refused',
    "An agent's key cannot register an app: its sign-in client would receive people's own tokens. An agent signs in as an agent client (MCP authorization).",
  );
}

/** Deleting an app ends its sign-in client and every sign-in of its users: not an agent's to do. */
export function agentKeyMayNotDelete(): DomainError {
  return DomainError.of('apps.agent_key_refused', "An agent's key cannot delete an app: the partner's own key does.");
}
