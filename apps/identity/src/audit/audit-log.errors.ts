import { DomainError } from '@stdreg/server-kit';

// The audit log read's refusals (codes and categories declared in IDENTITY_ERRORS).

export function agentKeyRefused(): DomainError {
  return DomainError.of('audit.agent_key_refused', "An agent's key cannot read the audit log: its acts are what the log holds to account.");
}

export function organizationNotOwn(organizationId: string): DomainError {
  return DomainError.of('audit.organization_not_own', `An app key reads its own organization's entries only, not ${organizationId}.`, {
    errors: [{ field: 'organization', message: "organization must be the key's own organization (or left out)" }],
  });
}
