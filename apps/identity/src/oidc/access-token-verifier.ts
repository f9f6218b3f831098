import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { IdentityConfig } from '../config/identity.config';
import type { DecisionSubject } from '../decisions/decision-policy';
import { AccessTokenSubjectRepository } from './access-token-subject.repository';
import { isUuid } from './oidc-accounts';
import { OIDC_SECRETS, type OidcSecrets } from './oidc-secrets';

/**
 * A user access token as a decision subject: a JWT of this issuer for the standards API (signature by
 * any configured key, so tokens signed before a key rotation verify during the overlap; issuer,
 * audience, type, expiry), whose client is still an active app and whose grant was not revoked. The
 * subject is the human the token's user resolves to today (merges followed) with the role bindings it
 * holds now, so a revoked role counts at once.
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
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, {
        issuer: this.config.oidcIssuer,
        audience: this.config.OIDC_API_AUDIENCE,
        typ: 'at+jwt',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['sub', 'exp', 'client_id', 'gid'],
        clockTolerance: 5,
      }));
    } catch {
      return 'invalid_credential';
    }
    const { sub, client_id: clientId, gid } = claims;
    if (typeof sub !== 'string' || !isUuid(sub) || typeof clientId !== 'string' || typeof gid !== 'string') return 'invalid_credential';
    const subject = await this.subjects.find(sub, clientId, gid);
    if (!subject?.client_active || !subject.grant_active) return 'invalid_credential';
    return { kind: 'human', uid: subject.uid, roles: subject.roles };
  }
}
