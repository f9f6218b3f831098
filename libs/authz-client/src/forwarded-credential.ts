import type { ForwardedCredentialDto } from '@stdreg/contracts';
import { bearerCredential } from '@stdreg/server-kit';

/**
 * The credential of an `Authorization: Bearer <credential>` header, as it is forwarded to identity:
 * platform API keys start with `stdreg_`; anything else is a sign-in access token. Null when the header
 * is missing or is not a single bearer credential.
 */
export function forwardedCredential(authorization: string | undefined): ForwardedCredentialDto | null {
  const value = bearerCredential(authorization);
  if (!value) return null;
  return { kind: value.startsWith('stdreg_') ? 'api_key' : 'access_token', value };
}
