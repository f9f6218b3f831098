import { DomainError } from '@stdreg/server-kit';

// The webhook endpoints' refusals (codes and categories declared in IDENTITY_ERRORS).

export function endpointNotFound(id: string): DomainError {
  return DomainError.of('webhooks.endpoint_not_found', `Webhook endpoint ${id} does not exist or is not your organization's.`);
}

export function urlRefused(url: string, reason: string): DomainError {
  return DomainError.of('webhooks.url_refused', `The endpoint URL ${url} is refused: ${reason}.`, {
    errors: [{ field: 'url', message: `url ${reason}` }],
  });
}

export function endpointOrganizationRequired(): DomainError {
  return DomainError.of('webhooks.organization_required', 'A platform key names the organization the endpoint is for.', {
    errors: [{ field: 'organizationId', message: 'organizationId is required with a platform key' }],
  });
}

export function endpointOrganizationUnknown(organizationId: string): DomainError {
  return DomainError.of('webhooks.organization_unknown', `Organization ${organizationId} does not exist.`);
}

export function deliveryNotFound(id: string): DomainError {
  return DomainError.of('webhooks.delivery_not_found', `Delivery ${id} does not exist at this endpoint.`);
}

export function endpointNotEnabled(id: string): DomainError {
  return DomainError.of('webhooks.endpoint_not_enabled', `Webhook endpoint ${id} is disabled: enable it first (PATCH enabled: true).`);
}

export function endpointOrganizationNotOwn(organizationId: string): DomainError {
  return DomainError.of(
    'webhooks.organization_not_own',
    `An app key registers endpoints for its own organization only, not ${organizationId}.`,
    {
      errors: [{ field: 'organizationId', message: "organizationId must be the key's own organization (or left out)" }],
    },
  );
}

export function recoverSinceInvalid(reason: string): DomainError {
  return DomainError.of('webhooks.recover_since_invalid', `since ${reason}.`, {
    errors: [{ field: 'since', message: `since ${reason}` }],
  });
}

export function endpointLimitReached(organizationId: string, limit: number): DomainError {
  return DomainError.of(
    'webhooks.limit_reached',
    `Organization ${organizationId} has its maximum of ${limit} webhook endpoints: remove one first (WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION).`,
  );
}

/**
 * The endpoints are how a partner's people learn what was done in their organization, agents' work included:
 * an agent's key may read them and send to them, not register, change, remove or re-key them.
 */
export function agentKeyRefused(): DomainError {
  return DomainError.of(
    'webhooks.agent_key_refused',
    "An agent's key cannot register, change, remove or rotate the secret of a webhook endpoint: the partner's own key does.",
  );
}
