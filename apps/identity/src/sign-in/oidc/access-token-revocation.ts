import { Injectable } from '@nestjs/common';
import { AccessTokenVerifier } from '../../access/callers/access-token-verifier';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';
import { RevokedAccessTokensRepository } from './revoked-access-tokens.repository';

/**
 * Revokes a JWT access token for the client that presents it (RFC 7009, which oidc-provider leaves to us
 * for structured tokens): the decision endpoint denies it from then on, on every replica. A token that
 * does not verify (expired, foreign, garbage) needs nothing and is 'unknown'.
 */
@Injectable()
export class AccessTokenRevocation {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly revoked: RevokedAccessTokensRepository,
    private readonly subjectChanges: SubjectChanges,
  ) {}

  async revoke(token: string, clientId: string): Promise<'revoked' | 'unknown' | 'other_client'> {
    const claims = await this.verifier.verifyForRevocation(token);
    if (!claims) return 'unknown';
    if (claims.clientId !== clientId) return 'other_client';
    await this.subjectChanges.apply(SubjectChange.accessTokens(), (write) =>
      this.revoked.insert(claims.jti, claims.clientId, new Date(claims.exp * 1000), write),
    );
    return 'revoked';
  }
}
