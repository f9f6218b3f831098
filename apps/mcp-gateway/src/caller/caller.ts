// Who is calling the gateway, as far as the HTTP request tells: credential, organization named, address.
import type { IncomingMessage } from 'node:http';
import type { ForwardedCredentialDto } from '@stdreg/contracts';

export interface McpCaller {
  /** The bearer credential exactly as presented, or null when none was. */
  credential: ForwardedCredentialDto | null;
  /** The organization the caller acts in (X-Organization-Id), or null to use the key's own. */
  organizationId: string | null;
  /** X-Organization-Id was sent but is not a uuid: anything organization-scoped is refused with that message. */
  organizationHeaderInvalid: boolean;
  ip: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `ip` is Express's request.ip where there is one (it follows TRUSTED_PROXY_HOPS), else the socket's address. */
export function callerOf(request: IncomingMessage & { ip?: string | undefined }): McpCaller {
  const match = /^Bearer ([^\s]+)$/.exec(request.headers.authorization ?? '');
  const value = match?.[1];
  const organization = request.headers['x-organization-id'];
  return {
    // Same rule as standards-api: platform API keys start with stdreg_, anything else is a sign-in access token.
    credential: value ? { kind: value.startsWith('stdreg_') ? 'api_key' : 'access_token', value } : null,
    organizationId: typeof organization === 'string' && UUID.test(organization) ? organization.toLowerCase() : null,
    organizationHeaderInvalid: organization !== undefined && !(typeof organization === 'string' && UUID.test(organization)),
    ip: request.ip ?? request.socket.remoteAddress ?? 'unknown',
  };
}
