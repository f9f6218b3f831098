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
