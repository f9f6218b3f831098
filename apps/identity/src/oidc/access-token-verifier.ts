import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { IdentityConfig } from '../config/identity.config';
import type { DecisionSubject } from '../subjects/decision-subject';
import { AccessTokenSubjectRepository } from './access-token-subject.repository';
import { isUuid } from '@stdreg/server-kit';
import { OIDC_SECRETS, type OidcSecrets } from '../secrets/oidc-secrets';

/**
 * A user access token as a decision subject: a JWT of this issuer for the standards API (signature by
 * any configured key, so tokens signed before a key rotation verify during the overlap; issuer,
 * audience, type, expiry), whose client is still an active app and whose grant was not revoked. The
 * subject is the human the token's user resolves to today (merges followed) with the role bindings it
 * holds now, so a revoked role counts at once; a token revoked by its client (jti) counts at once too.
 * The token's `auth_time` comes along: a formal write asks how recent the sign-in is.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    @Inject(OIDC_SECRETS) secrets: OidcSecrets,
    private readonly config: IdentityConfig,
    private readonly subjects: AccessTokenSubjectRepository,
  ) {
    this.keys = createLocalJWKSet({ keys: secrets.publicKeys as JWK[] });
  }

  async subjectOf(token: string): Promise<DecisionSubject | 'invalid_credential'> {
    const claims = await this.verify(token);
    if (!claims) return 'invalid_credential';
    const subject = await this.subjects.find(claims.sub, claims.clientId, claims.gid, claims.jti);
    if (!subject?.clientActive || !subject.grantActive || !subject.tokenActive) return 'invalid_credential';
    return {
      kind: 'human',
      uid: subject.uid,
      roles: subject.roles,
      ...(claims.authTime === undefined ? {} : { authTime: claims.authTime }),
    };
  }

  /**
   * Revokes a JWT access token for the client that presents it (RFC 7009, which oidc-provider leaves
   * to us for structured tokens): the decision endpoint denies it from then on, on every replica.
   * A token that does not verify (expired, foreign, garbage) needs nothing and is 'unknown'.
   */
  async revoke(token: string, clientId: string): Promise<'revoked' | 'unknown' | 'other_client'> {
    const claims = await this.verify(token);
    if (!claims) return 'unknown';
    if (claims.clientId !== clientId) return 'other_client';
    await this.subjects.revoke(claims.jti, claims.clientId, new Date(claims.exp * 1000));
    return 'revoked';
  }

  private async verify(
    token: string,
  ): Promise<{ sub: string; clientId: string; gid: string; jti: string; exp: number; authTime?: number } | null> {
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, {
        issuer: this.config.oidcIssuer,
        audience: this.config.OIDC_API_AUDIENCE,
        typ: 'at+jwt',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['sub', 'exp', 'client_id', 'gid', 'jti'],
        clockTolerance: 5,
      }));
    } catch {
      return null;
    }
    const { sub, client_id: clientId, gid, jti, exp, auth_time: authTime } = claims;
    if (typeof sub !== 'string' || !isUuid(sub) || typeof clientId !== 'string' || typeof gid !== 'string') return null;
    if (typeof jti !== 'string' || typeof exp !== 'number') return null;
    return { sub, clientId, gid, jti, exp, ...(Number.isInteger(authTime) ? { authTime: authTime as number } : {}) };
  }
}
