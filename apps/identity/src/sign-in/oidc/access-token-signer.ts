import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { importJWK, SignJWT, type JWK } from 'jose';
import { IdentityConfig } from '../../platform/config/identity.config';
import { OIDC_SECRETS, type OidcSecrets, type PrivateJwk } from '../../platform/secrets/oidc-secrets';

/**
 * Signs access tokens identity issues outside the provider's flows (the token exchange): RFC 9068 JWTs
 * of this issuer, with the key the provider signs with (the first RS256 key), so one verifier reads both.
 */
@Injectable()
export class AccessTokenSigner {
  private readonly key: PrivateJwk;
  private imported: ReturnType<typeof importJWK> | undefined;

  constructor(
    @Inject(OIDC_SECRETS) secrets: OidcSecrets,
    private readonly config: IdentityConfig,
  ) {
    const key = secrets.signingKeys.find((candidate) => (candidate.alg ?? 'RS256') === 'RS256' && candidate.kty === 'RSA');
    if (!key) throw new Error('no RS256 signing key is configured');
    this.key = key;
  }

  /** A token for `audience` that ends at `expiresAt` (seconds since the epoch), with a fresh `jti` unless one is given. */
  async sign(claims: Record<string, unknown>, audience: string, expiresAt: number, jti: string = randomUUID()): Promise<string> {
    this.imported ??= importJWK(this.key as JWK, 'RS256');
    return new SignJWT({ ...claims, jti })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'at+jwt' })
      .setIssuer(this.config.oidcIssuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(await this.imported);
  }
}
