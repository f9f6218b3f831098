// The audit entries of what the OpenID Provider does itself: tokens issued and refreshed, tokens revoked at its endpoint, clients registered.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Actor } from '../../platform/audit-trail/actor';
import type { AuditService } from '../../platform/audit-trail/audit.service';
import { isAgentClient } from './agent-clients';

/**
 * A refresh is recorded once per grant in this window: an agent refreshes each time its access token ends, and
 * an entry per refresh would grow the log by every active grant's token lifetime. Every access token names its
 * grant (`gid`), so a token refreshed inside the window is still traced to the grant's issuance and revocation.
 */
export const REFRESH_AUDIT_WINDOW_SECONDS = 60 * 60;

export type ProviderAudit = Pick<AuditService, 'record' | 'recordOncePer' | 'recordFirst'>;

export interface ClientLike {
  clientId: string;
  tokenEndpointAuthMethod?: string;
}

interface IssuedAccessToken {
  jti: string;
  accountId?: string;
  grantId?: string;
  scope?: string;
  aud?: string | string[];
  resourceServer?: { audience?: string; accessTokenFormat?: string };
}

interface StoredToken {
  kind: string;
  clientId?: string;
  accountId?: string;
  grantId?: string;
}

/** The actor of what a client does under a person's grant: the agent under its supervisor, or the person for a partner app (as decisions name them). */
export function actorUnderGrant(client: ClientLike, accountId: string | undefined): Actor {
  if (isAgentClient(client)) return { kind: 'agent', id: client.clientId, ...(accountId ? { supervisor: accountId } : {}) };
  return accountId ? { kind: 'human', id: accountId } : { kind: 'service', id: client.clientId };
}

/**
 * Records the provider's token and registration answers after it has made them and before they leave: a failed
 * entry turns the answer into an error, so no token or registration reaches a client without its entry. The
 * provider writes through its adapter one statement at a time, and signs JWT access tokens without storing them,
 * so there is no transaction to share (see decisions, session 55).
 */
export function auditProviderAnswers(audit: ProviderAudit) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    if (ctx.status < 200 || ctx.status >= 300) return;
    const client = ctx.oidc?.client;
    if (ctx.path === '/token' && client) await recordIssued(audit, ctx, client);
    else if (ctx.path === '/token/revocation' && client) await recordRevokedByProvider(audit, ctx, client);
    else if (ctx.path === '/reg' && ctx.method === 'POST' && ctx.status === 201) await recordRegistered(audit, ctx);
  };
}

async function recordIssued(audit: ProviderAudit, ctx: KoaContextWithOIDC, client: ClientLike): Promise<void> {
  const token = ctx.oidc.entities.AccessToken as IssuedAccessToken | undefined;
  if (!token) return;
  const grantType = ctx.oidc.params?.['grant_type'];
  const actor = actorUnderGrant(client, token.accountId);
  const detail = {
    clientId: client.clientId,
    grantType,
    grantId: token.grantId ?? null,
    // An opaque token's id is the token itself: only a JWT's jti is named.
    jti: token.resourceServer?.accessTokenFormat === 'jwt' ? token.jti : null,
    scope: token.scope?.split(' ').filter(Boolean) ?? [],
    resource: token.resourceServer?.audience ?? token.aud ?? null,
    // The provider keeps no `exp` on the model it signed; the answer's lifetime is the token's.
    expiresIn: (ctx.body as { expires_in?: unknown } | undefined)?.expires_in ?? null,
    refreshTokenIssued: ctx.oidc.entities.RefreshToken !== undefined,
  };
  if (grantType === 'refresh_token' && token.grantId) {
    await audit.recordOncePer(REFRESH_AUDIT_WINDOW_SECONDS, actor, {
      action: 'tokens.refresh',
      target: token.grantId,
      detail: { ...detail, windowSeconds: REFRESH_AUDIT_WINDOW_SECONDS },
    });
    return;
  }
  await audit.record(actor, { action: 'tokens.issue', target: token.grantId ?? null, detail });
}

/**
 * An opaque access token (a partner app's, for userinfo) the provider revoked: its grant stays. A refresh token's
 * revocation ends its grant, recorded with it (GrantRevocations); a JWT access token's is AccessTokenRevocation's.
 * A token of another client is left alone (the revocation policy) and answered 200 all the same: not recorded.
 */
async function recordRevokedByProvider(audit: ProviderAudit, ctx: KoaContextWithOIDC, client: ClientLike): Promise<void> {
  const token = ctx.oidc.entities.AccessToken as StoredToken | undefined;
  if (!token || ctx.oidc.entities.RefreshToken || token.clientId !== client.clientId) return;
  await audit.record(actorUnderGrant(client, token.accountId), {
    action: 'tokens.revoke',
    target: token.grantId ?? null,
    detail: { path: 'revocation_endpoint', clientId: client.clientId, tokenType: 'access_token', grantEnded: false },
  });
}

/** An agent client registered by RFC 7591: anonymous, or by whoever held the initial access token, known by the address it came from. */
async function recordRegistered(audit: ProviderAudit, ctx: KoaContextWithOIDC): Promise<void> {
  const registered = ctx.body as Record<string, unknown> | undefined;
  const clientId = registered?.['client_id'];
  if (typeof clientId !== 'string') return;
  await audit.record(
    { kind: 'anonymous', id: addressOf(ctx) },
    {
      action: 'clients.register',
      target: clientId,
      detail: {
        clientName: registered?.['client_name'] ?? null,
        redirectUris: registered?.['redirect_uris'] ?? [],
        initialAccessToken: ctx.oidc.entities.InitialAccessToken !== undefined,
      },
    },
  );
}

/** A client known by its metadata document, as the provider holds it once it has fetched and accepted the document. */
interface DocumentClient extends ClientLike {
  clientName?: string;
  redirectUris?: readonly string[];
}

/** How many document clients a process remembers having recorded: past this, it asks the log again. */
const REMEMBERED_DOCUMENT_CLIENTS = 10_000;

/**
 * A client known by its Client ID Metadata Document gets one `clients.register` the first time identity fetches
 * and accepts its document (the provider asks `allowClient` after every fetch, and for every cached use): anonymous
 * by the address whose request made identity fetch it, or `system`/`sign-in` when no request is at hand. The log
 * says whether it was recorded, so replicas and restarts write it once; a process remembers the ids it has seen
 * recorded, so a client's every later use asks nothing. A failed entry refuses the client, as a registration's does.
 */
export function auditDocumentClients(audit: ProviderAudit) {
  const recorded = new Set<string>();
  return async (ctx: KoaContextWithOIDC | undefined, client: DocumentClient): Promise<boolean> => {
    if (recorded.has(client.clientId)) return true;
    await audit.recordFirst(ctx ? { kind: 'anonymous', id: addressOf(ctx) } : { kind: 'system', id: 'sign-in' }, {
      action: 'clients.register',
      target: client.clientId,
      detail: { clientName: client.clientName ?? null, redirectUris: client.redirectUris ?? [], metadataDocument: true },
    });
    if (recorded.size >= REMEMBERED_DOCUMENT_CLIENTS) recorded.clear();
    recorded.add(client.clientId);
    return true;
  };
}

/** The address Express sees (it follows only TRUSTED_PROXY_HOPS proxies), as the rest of identity's anonymous entries. */
function addressOf(ctx: KoaContextWithOIDC): string {
  const { ip } = ctx.req as typeof ctx.req & { ip?: string };
  return ip ?? ctx.req.socket.remoteAddress ?? 'unknown';
}
