// Who is calling the gateway, as far as the HTTP request tells: credential, organization named, address.
import type { IncomingMessage } from 'node:http';
import { forwardedCredential } from '@stdreg/authz-client';
import type { DecisionSubjectDto, ForwardedCredentialDto } from '@stdreg/contracts';
import { isUuid } from '@stdreg/server-kit';

export interface McpCaller {
  /** The bearer credential exactly as presented, or null when none was. */
  credential: ForwardedCredentialDto | null;
  /** The organization the caller acts in (X-Organization-Id), or null to use the key's own. */
  organizationId: string | null;
  /** X-Organization-Id was sent but is not a uuid: anything organization-scoped is refused with that message. */
  organizationHeaderInvalid: boolean;
  ip: string;
  /**
   * An agent's token that identity allowed tool:call for, with every scope this request's operations
   * need, before any of them ran (see McpEndpoint): the subject of that one answer. Null otherwise.
   */
  admitted: DecisionSubjectDto | null;
}

/** `ip` is Express's request.ip where there is one (it follows TRUSTED_PROXY_HOPS), else the socket's address. */
export function callerOf(request: IncomingMessage & { ip?: string | undefined }): McpCaller {
  const organization = request.headers['x-organization-id'];
  return {
    credential: forwardedCredential(request.headers.authorization),
    organizationId: isUuid(organization) ? organization.toLowerCase() : null,
    organizationHeaderInvalid: organization !== undefined && !isUuid(organization),
    ip: request.ip ?? request.socket.remoteAddress ?? 'unknown',
    admitted: null,
  };
}
