import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { IdentityConfig } from '../config/identity.config';
import type { DecisionSubject } from '../decisions/decision-policy';
import { RegisteredAppsRepository } from '../registered-apps/registered-apps.repository';
import { OidcAccounts } from './oidc-accounts';
import { OIDC_SECRETS, type OidcSecrets } from './oidc-secrets';
import { OidcStoreRepository } from './oidc-store.repository';

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
    private readonly accounts: OidcAccounts,
    private readonly apps: RegisteredAppsRepository,
    private readonly store: OidcStoreRepository,
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
    if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof gid !== 'string') return 'invalid_credential';
    const client = await this.apps.findActiveClient(clientId);
    if (!client || !(await this.store.grantExists(gid))) return 'invalid_credential';
    const user = await this.accounts.tokenClaims(sub);
    return user ? { kind: 'human', uid: user.uid, roles: user.roles } : 'invalid_credential';
  }
}
