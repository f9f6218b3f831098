import { DomainError } from '@stdreg/server-kit';

// The role bindings' refusals (codes and categories declared in IDENTITY_ERRORS).

export function organizationUnknown(organizationId: string): DomainError {
  return DomainError.of('role_bindings.organization_unknown', `Organization ${organizationId} does not exist.`, {
    errors: [{ field: 'organizationId', message: 'organizationId must name an existing organization' }],
  });
}

export function roleAlreadyHeld(uid: string, role: string, organizationId: string | null): DomainError {
  const scope = organizationId === null ? 'globally' : `in organization ${organizationId}`;
  return DomainError.of('role_bindings.already_held', `Unified user ${uid} holds ${role} ${scope} already.`);
}

export function roleBindingNotFound(id: string): DomainError {
  return DomainError.of('role_bindings.not_found', `Role binding ${id} does not exist.`);
}
