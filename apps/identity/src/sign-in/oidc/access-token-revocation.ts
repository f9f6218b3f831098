import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessTokenVerifier } from '../../access/callers/access-token-verifier';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { actorUnderGrant } from './provider-audit';
import { RevokedAccessTokensRepository } from './revoked-access-tokens.repository';

/**
 * Revokes a JWT access token for the client that presents it (RFC 7009, which oidc-provider leaves to us
 * for structured tokens): the decision endpoint denies it from then on, on every replica. A token that
 * does not verify (expired, foreign, garbage) needs nothing and is 'unknown'. The first revocation of a
 * token is audited with it, in one transaction.
 */
@Injectable()
export class AccessTokenRevocation {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly revoked: RevokedAccessTokensRepository,
    private readonly subjectChanges: SubjectChanges,
    private readonly audit: AuditService,
    private readonly dataSource: DataSource,
  ) {}

  async revoke(
    token: string,
    client: { clientId: string; tokenEndpointAuthMethod?: string },
  ): Promise<'revoked' | 'unknown' | 'other_client'> {
    const claims = await this.verifier.verifyForRevocation(token);
    if (!claims) return 'unknown';
    if (claims.clientId !== client.clientId) return 'other_client';
    await this.subjectChanges.apply(SubjectChange.accessTokens(), (write) =>
      this.dataSource.transaction(async (manager) => {
        if (!(await this.revoked.insert(manager, claims.jti, claims.clientId, new Date(claims.exp * 1000), write))) return;
        await this.audit.record(
          actorUnderGrant(client, claims.sub),
          {
            action: 'tokens.revoke',
            target: claims.gid,
            detail: {
              path: 'revocation_endpoint',
              clientId: claims.clientId,
              tokenType: 'access_token',
              jti: claims.jti,
              grantEnded: false,
              // Tokens exchanged for this one (`subject_token_jti`) end with it.
              ...(claims.actor === undefined ? {} : { exchangedFrom: claims.subjectTokenJti ?? null }),
            },
          },
          manager,
        );
      }),
    );
    return 'revoked';
  }
}
