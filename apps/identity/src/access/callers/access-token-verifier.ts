import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, jwtVerify, type JWK, type JWTVerifyGetKey } from 'jose';
import { canonicalResourceUrl } from '@stdreg/contracts';
import { IdentityConfig } from '../../platform/config/identity.config';
import type { DecisionSubject } from './decision-subject';
import { AccessTokenSubjectRepository, type AccessTokenIds } from './access-token-subject.repository';
import { TokenSubjectLeases, type LeasedTokenSubject } from './token-subject-leases';
import { isUuid } from '@stdreg/server-kit';
import { OIDC_SECRETS, type OidcSecrets } from '../../platform/secrets/oidc-secrets';

/**
 * A token issued by a replica whose clock runs ahead is not refused as not yet valid (`iat`, `nbf`). Its end
 * has no such tolerance: the provider treats a token as expired at `exp` exactly, and so does every decision.
 */
const ISSUED_AT_TOLERANCE_SECONDS = 5;

/** The scope a person consents to for an app's access to the standards API (with `resource=<OIDC_API_AUDIENCE>`). */
export const API_SCOPE = 'api';

/** The claims of a verified access token that a decision uses. */
export interface VerifiedAccessToken {
  sub: string;
  clientId: string;
  gid: string;
  jti: string;
  exp: number;
  authTime?: number;
  scopes: string[];
  /** The agent client acting for the person (RFC 8693 `act`), on a token exchanged for the standards API. */
  actor?: string;
  /** On an exchanged token, the `jti` of the agent's token it was exchanged for: revoking that one ends this one too. */
  subjectTokenJti?: string;
}

/**
 * A user access token as a decision subject: a JWT of this issuer for the audience the asking service
 * is (signature by any configured key, so tokens signed before a key rotation verify during the overlap;
 * issuer, audience, type, expiry), whose client is still there and whose grant was not revoked. The
 * subject is the human the token's user resolves to today (merges followed) with the role bindings it
 * holds now, so a revoked role counts at once; a token revoked by its client (jti) counts at once too.
 * The token's `auth_time` comes along: a formal write asks how recent the sign-in is. A token for the
 * tool gateway is always an agent client's, and so is a standards-API token with an `act` claim (one the
 * gateway exchanged): their subject is the agent, supervised by the person.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    @Inject(OIDC_SECRETS) secrets: OidcSecrets,
    private readonly config: IdentityConfig,
    private readonly subjects: AccessTokenSubjectRepository,
    private readonly leases: TokenSubjectLeases,
  ) {
    this.keys = createLocalJWKSet({ keys: secrets.publicKeys as JWK[] });
  }

  /** `audience`: the resource the asking service is; absent, the standards API. Any other audience is refused. */
  async subjectOf(token: string, audience?: string): Promise<DecisionSubject | 'invalid_credential'> {
    const expected = this.knownAudience(audience);
    if (!expected) return 'invalid_credential';
    const claims = await this.verify(token, expected);
    if (!claims) return 'invalid_credential';
    // The provider issues an API token for a grant without `api` too (its scope then empty): a person who consented to
    // sign-in alone gave the app no access to the API. An exchanged token (`act`) carries the agent's scopes instead.
    if (expected === this.config.OIDC_API_AUDIENCE && claims.actor === undefined && !claims.scopes.includes(API_SCOPE)) {
      return 'invalid_credential';
    }
    const agentClientId = expected === this.config.mcpResource ? claims.clientId : claims.actor;
    const subject = await this.leasedSubject({
      uid: claims.sub,
      clientId: agentClientId ?? claims.clientId,
      grantId: claims.gid,
      jti: claims.jti,
      subjectTokenJti: claims.subjectTokenJti ?? null,
    });
    if (!subject) return 'invalid_credential';
    if (agentClientId !== undefined) {
      return {
        kind: 'agent',
        via: 'token',
        clientId: agentClientId,
        supervisorUid: subject.uid,
        roles: subject.roles,
        scopes: claims.scopes,
      };
    }
    return {
      kind: 'human',
      uid: subject.uid,
      roles: subject.roles,
      ...(claims.authTime === undefined ? {} : { authTime: claims.authTime }),
    };
  }

  /**
   * The subject of a token whose client, grant and jti are in force, from this replica's lease while one
   * is live (TokenSubjectLeases: whatever ends it still counts at once); null when any is not.
   */
  private async leasedSubject(token: AccessTokenIds): Promise<LeasedTokenSubject | null> {
    const key = `${token.uid} ${token.clientId} ${token.grantId} ${token.jti} ${token.subjectTokenJti ?? ''}`;
    const leased = this.leases.find(key);
    if (leased) {
      if (this.leases.claimRenewal(key)) void this.readSubject(key, token).catch(() => this.leases.renewalFailed(key));
      return leased;
    }
    return this.readSubject(key, token);
  }

  /** Reads the subject and holds it on a lease that starts before the read; a subject no longer in force ends the lease. */
  private async readSubject(key: string, token: AccessTokenIds): Promise<LeasedTokenSubject | null> {
    const startedAt = this.leases.start();
    const read = await this.subjects.find(token);
    if (!read?.clientActive || !read.grantActive || !read.tokenActive) {
      this.leases.drop(key);
      return null;
    }
    const subject = { uid: read.uid, roles: read.roles };
    this.leases.hold(key, subject, startedAt, read.grantExpiresAtMs ?? undefined);
    return subject;
  }

  /** A token for the tool gateway, verified as the decision endpoint would (for the token exchange). */
  async verifyForGateway(token: string): Promise<VerifiedAccessToken | null> {
    return this.verify(token, this.config.mcpResource);
  }

  /** A token of this issuer for either resource identity serves, as its revocation needs it; null when it does not verify. */
  async verifyForRevocation(token: string): Promise<VerifiedAccessToken | null> {
    return (await this.verify(token, this.config.OIDC_API_AUDIENCE)) ?? (await this.verify(token, this.config.mcpResource));
  }

  private knownAudience(audience: string | undefined): string | null {
    if (audience === undefined || audience === this.config.OIDC_API_AUDIENCE) return this.config.OIDC_API_AUDIENCE;
    try {
      return canonicalResourceUrl(audience) === this.config.mcpResource ? this.config.mcpResource : null;
    } catch {
      return null;
    }
  }

  private async verify(token: string, audience: string): Promise<VerifiedAccessToken | null> {
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, this.keys, {
        issuer: this.config.oidcIssuer,
        audience,
        typ: 'at+jwt',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['sub', 'exp', 'client_id', 'gid', 'jti'],
        clockTolerance: ISSUED_AT_TOLERANCE_SECONDS,
      }));
    } catch {
      return null;
    }
    const { sub, client_id: clientId, gid, jti, exp, auth_time: authTime, scope, act, subject_token_jti: subjectTokenJti } = claims;
    if (typeof sub !== 'string' || !isUuid(sub) || typeof clientId !== 'string' || typeof gid !== 'string') return null;
    if (typeof jti !== 'string' || typeof exp !== 'number') return null;
    if (exp * 1000 <= Date.now()) return null;
    const actor = typeof act === 'object' && act !== null ? (act as { sub?: unknown }).sub : undefined;
    if (act !== undefined && typeof actor !== 'string') return null;
    if (subjectTokenJti !== undefined && typeof subjectTokenJti !== 'string') return null;
    return {
      sub,
      clientId,
      gid,
      jti,
      exp,
      scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [],
      ...(Number.isInteger(authTime) ? { authTime: authTime as number } : {}),
      ...(typeof actor === 'string' ? { actor } : {}),
      ...(typeof subjectTokenJti === 'string' ? { subjectTokenJti } : {}),
    };
  }
}
