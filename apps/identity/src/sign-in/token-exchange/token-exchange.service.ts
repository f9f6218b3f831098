import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_TYPE, type TokenExchangeRequestDto, type TokenExchangeResponseDto } from '@stdreg/contracts';
import { IdentityConfig } from '../../platform/config/identity.config';
import { AccessTokenSigner } from '../oidc/access-token-signer';
import { AccessTokenVerifier } from '../../access/callers/access-token-verifier';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { scopeWider, subjectTokenInvalid, targetInvalid } from './token-exchange.errors';

/** An exchanged token lives this long at most (and never past the agent's own token). */
export const EXCHANGED_TOKEN_TTL_SECONDS = 300;

/**
 * RFC 8693 delegation for the tool gateway: a live agent token for the gateway becomes a short token for
 * the standards API with the same person (`sub`), grant and sign-in time, scopes no wider than the
 * agent's, and the agent named as the actor (`act`), so that standards-api and identity see an agent,
 * never the person alone. The agent's own token stays at the gateway; its `jti` goes along (`subject_token_jti`).
 */
@Injectable()
export class TokenExchangeService {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly signer: AccessTokenSigner,
    private readonly config: IdentityConfig,
    private readonly audit: AuditService,
  ) {}

  async exchange(request: TokenExchangeRequestDto): Promise<TokenExchangeResponseDto> {
    const audience = this.config.OIDC_API_AUDIENCE;
    if (request.resource !== undefined && request.resource !== audience) throw targetInvalid(request.resource);
    const claims = await this.verifier.verifyForGateway(request.subject_token);
    const subject = claims ? await this.verifier.subjectOf(request.subject_token, this.config.mcpResource) : null;
    if (!claims || subject === null || subject === 'invalid_credential' || subject.kind !== 'agent') throw subjectTokenInvalid();
    const asked = request.scope === undefined ? claims.scopes : [...new Set(request.scope.split(' '))];
    if (!asked.every((scope) => claims.scopes.includes(scope))) throw scopeWider(asked, claims.scopes);
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = Math.min(claims.exp, now + EXCHANGED_TOKEN_TTL_SECONDS);
    const scope = asked.join(' ');
    const jti = randomUUID();
    // Nothing is stored for an exchanged token: its entry is written before it is signed, so none leaves without one.
    await this.audit.record(
      { kind: 'agent', id: claims.clientId, supervisor: claims.sub },
      {
        action: 'tokens.exchange',
        target: claims.gid,
        detail: {
          clientId: claims.clientId,
          subjectTokenJti: claims.jti,
          jti,
          scope: asked,
          resource: audience,
          expiresAt: new Date(expiresAt * 1000).toISOString(),
        },
      },
    );
    const accessToken = await this.signer.sign(
      {
        sub: claims.sub,
        client_id: claims.clientId,
        client_kind: 'agent',
        act: { sub: claims.clientId },
        scope,
        gid: claims.gid,
        // Revoking the agent's token (RFC 7009, by its jti) ends this one at once too, wherever it is presented.
        subject_token_jti: claims.jti,
        ...(claims.authTime === undefined ? {} : { auth_time: claims.authTime }),
      },
      audience,
      expiresAt,
      jti,
    );
    return { access_token: accessToken, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: expiresAt - now, scope };
  }
}
