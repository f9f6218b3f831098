import { Injectable } from '@nestjs/common';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DataSource, type EntityManager } from 'typeorm';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { OidcStoreRepository } from './oidc-store.repository';
import { actorUnderGrant, type ClientLike } from './provider-audit';

/** Why the provider ended a grant: its client revoked a token of it, the person signed out, or a code or refresh token was used twice. */
export type GrantEndCause =
  | { path: 'revocation_endpoint'; client: ClientLike; tokenType: 'refresh_token' | 'access_token' }
  | { path: 'sign_out'; client: ClientLike | null }
  | { path: 'replayed_code' | 'replayed_refresh_token' }
  | { path: 'provider'; route: string | null };

/** Ends grants with their audit entries in the same transaction: one the provider removes, or all of a person's. */
@Injectable()
export class GrantRevocations {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: OidcStoreRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Ends every sign-in of a person (their grants with what each issued, and their sessions) in the caller's
   * transaction, recording each grant as ended by `actor` on `path`. Answers how many grants ended.
   */
  async endSignInsOf(
    manager: EntityManager,
    uid: string,
    path: 'password_change' | 'person_deleted',
    actor: Actor,
    write: SubjectChangeWrite,
  ): Promise<number> {
    const ended = await this.store.endSignInsOf(manager, uid, write);
    for (const grant of ended) {
      await this.audit.record(
        actor,
        {
          action: 'tokens.revoke',
          target: grant.grantId,
          detail: { path, clientId: grant.clientId, accountId: grant.accountId, grantEnded: true },
        },
        manager,
      );
    }
    return ended.length;
  }

  async end(grantId: string, cause: GrantEndCause, write: SubjectChangeWrite): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const ended = await this.store.destroyGrant(manager, grantId, write);
      if (!ended) return;
      const { path } = cause;
      await this.audit.record(
        actorOfEnd(cause, ended.accountId),
        {
          action: 'tokens.revoke',
          target: grantId,
          detail: {
            path,
            clientId: ended.clientId,
            accountId: ended.accountId,
            grantEnded: true,
            ...(cause.path === 'revocation_endpoint' ? { tokenType: cause.tokenType } : {}),
            ...(cause.path === 'provider' ? { route: cause.route } : {}),
          },
        },
        manager,
      );
    });
  }
}

/** The client for what it revoked itself, the person for a sign-out, identity for a replay it answered by ending the grant. */
function actorOfEnd(cause: GrantEndCause, accountId: string): Actor {
  switch (cause.path) {
    case 'revocation_endpoint':
      return actorUnderGrant(cause.client, accountId);
    case 'sign_out':
      return { kind: 'human', id: accountId };
    default:
      return { kind: 'system', id: 'sign-in' };
  }
}

/** Why the provider is ending a grant in the request it is answering (its context), for the grant's entry. */
export function grantEndCause(ctx: KoaContextWithOIDC | undefined, replayed: 'AuthorizationCode' | 'RefreshToken' | null): GrantEndCause {
  if (replayed === 'AuthorizationCode' || (ctx?.oidc?.route === 'token' && ctx.oidc.params?.['grant_type'] === 'authorization_code'))
    return { path: 'replayed_code' };
  if (replayed === 'RefreshToken' || ctx?.oidc?.route === 'token') return { path: 'replayed_refresh_token' };
  const client = (ctx?.oidc?.client as ClientLike | undefined) ?? null;
  if (ctx?.oidc?.route === 'revocation' && client)
    return { path: 'revocation_endpoint', client, tokenType: ctx.oidc.entities.RefreshToken ? 'refresh_token' : 'access_token' };
  if (ctx?.oidc?.route === 'end_session_confirm' || ctx?.oidc?.route === 'end_session') return { path: 'sign_out', client };
  return { path: 'provider', route: ctx?.oidc?.route ?? null };
}
