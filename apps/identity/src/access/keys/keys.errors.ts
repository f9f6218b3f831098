import { DomainError } from '@stdreg/server-kit';

// The keys feature's refusals (codes and categories declared in IDENTITY_ERRORS).

export function keyNotFound(id: string): DomainError {
  return DomainError.of('keys.not_found', `Key ${id} does not exist.`);
}

export function keyRevoked(): DomainError {
  return DomainError.of('keys.revoked', 'A revoked key cannot be rotated.');
}

export function organizationRequired(): DomainError {
  return DomainError.of('keys.organization_required', 'An app key acts for an organization.', {
    errors: [{ field: 'organizationId', message: 'organizationId is required for app keys' }],
  });
}

export function organizationUnknown(organizationId: string): DomainError {
  return DomainError.of('keys.organization_unknown', `Organization ${organizationId} does not exist.`, {
    errors: [{ field: 'organizationId', message: 'organizationId must name an existing organization' }],
  });
}

export function registriesUnknown(missing: string[]): DomainError {
  return DomainError.of('keys.registries_unknown', `Unknown registries: ${missing.join(', ')}.`, {
    errors: [{ field: 'allowedRegistryIds', message: 'every registry id must name a registered app' }],
  });
}

export function registriesOfAnotherOrganization(foreign: string[]): DomainError {
  return DomainError.of('keys.registries_of_another_organization', `Registries of another organization: ${foreign.join(', ')}.`, {
    errors: [{ field: 'allowedRegistryIds', message: "every registry id must name a registered app of the key's organization" }],
  });
}

export function agentKeyNotApp(): DomainError {
  return DomainError.of('keys.agent_key_not_app', "An agent's key is an app key: it acts in one organization.", {
    errors: [{ field: 'class', message: "class must be app for an agent's key (agentSupervisorId)" }],
  });
}

export function supervisorUnknown(uid: string, mergedInto: string | null): DomainError {
  const message =
    mergedInto === null
      ? `No unified user ${uid} exists to supervise the agent.`
      : `Unified user ${uid} was merged into ${mergedInto}: name ${mergedInto} as the supervisor.`;
  return DomainError.of('keys.supervisor_unknown', message, {
    errors: [{ field: 'agentSupervisorId', message: 'agentSupervisorId must be the uid of a live (unmerged) unified user' }],
  });
}
