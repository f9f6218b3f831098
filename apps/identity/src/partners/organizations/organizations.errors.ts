import { DomainError } from '@stdreg/server-kit';

// The organizations' refusals (codes and categories declared in IDENTITY_ERRORS).

export function organizationNotFound(id: string): DomainError {
  return DomainError.of('organizations.not_found', `Organization ${id} does not exist.`);
}

export function notOwnOrganization(): DomainError {
  return DomainError.of('organizations.not_own', 'An app key may read only its own organization.');
}
