import { DomainError } from '@stdreg/server-kit';

// The users' (mirror records') refusals (codes and categories declared in IDENTITY_ERRORS).

export function userNotFound(id: string): DomainError {
  return DomainError.of('users.not_found', `User ${id} does not exist or its registry is not bound to this key.`);
}

export function externalIdTaken(registryId: string, externalId: string): DomainError {
  return DomainError.of('users.external_id_taken', `Registry ${registryId} already has a user with externalId ${externalId}.`);
}

export function nothingToChange(fields: readonly string[]): DomainError {
  return DomainError.of('users.nothing_to_change', `Give at least one field to change: ${fields.join(', ')}.`);
}

/** Deleting a mirror record removes a person, and may end their sign-ins: an agent's key drafts, it does not remove people. */
export function agentKeyMayNotDelete(): DomainError {
  return DomainError.of(
    'users.agent_key_refused',
    "An agent's key cannot delete users (by DELETE or by a sync record with deleted: true): removing a person stays with the partner's own key.",
  );
}
