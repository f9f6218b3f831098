import Provider, { errors, type Adapter, type AdapterConstructor, type AdapterPayload } from 'oidc-provider';
import { unstorableText } from '@stdreg/server-kit';
import { storedModel, type OidcStoreRepository } from './oidc-store.repository';
import { SubjectChange, type SubjectChanges } from '../../access/subject-changes/subject-changes';
import { grantEndCause, type GrantRevocations } from './grant-revocations';

/**
 * How long an agent client registered by RFC 7591 (and its registration access token) lives while no person
 * has granted it anything (a grant's own lifetime): anyone may register, and a client nobody ever signs in
 * with was otherwise kept for good. The first grant keeps it for good (`keepClient`).
 */
export const UNUSED_AGENT_CLIENT_SECONDS = 30 * 24 * 60 * 60;

/** The stored models a grant issues, revoked with it (as the provider's own revocation does). */
const GRANT_SOURCE_MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken'];

/** Where the provider's `Client` model comes from: the registered apps, never a static list. */
export interface ClientSource {
  find(clientId: string): Promise<AdapterPayload | undefined>;
}

/**
 * The provider's storage: every model in PostgreSQL (so restarts and replicas keep sessions, codes
 * and tokens). Partner apps are clients read from the registered apps on every use; agent clients that
 * registered themselves (RFC 7591) are stored like any other model, and expire unless a person grants them
 * something. Removing a grant or a client answers only once no replica's decision relies on it any more.
 */
export function postgresAdapter(
  store: OidcStoreRepository,
  clients: ClientSource,
  subjectChanges: SubjectChanges,
  grants: Pick<GrantRevocations, 'end'>,
): AdapterConstructor {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // The provider saves an empty session for a session cookie it cannot find (one that ended), a new
      // one on each request carrying that cookie, refused or not: an empty session is never kept.
      const stored = storedModel(this.model);
      if (this.model === 'Session' && stored.kind === 'other' && sessionHoldsNothing(payload)) return store.destroy(stored.model, id);
      if (this.model === 'Client' && payload.token_endpoint_auth_method === 'none') {
        const { client_secret: _unused, client_secret_expires_at: _never, ...publicClient } = payload;
        return store.upsert(this.model, id, publicClient, expiresIn ?? UNUSED_AGENT_CLIENT_SECONDS);
      }
      if (this.model === 'RegistrationAccessToken') return store.upsert(this.model, id, payload, expiresIn ?? UNUSED_AGENT_CLIENT_SECONDS);
      await store.upsert(this.model, id, payload, expiresIn);
      if (this.model === 'Grant' && typeof payload.clientId === 'string') await store.keepClient(payload.clientId);
    }

    // An id from a request body (a code, a token, a client id) that no text column can hold names nothing.
    async find(id: string): Promise<AdapterPayload | undefined> {
      if (unstorableText(id)) return undefined;
      if (this.model !== 'Client') return store.find(this.model, id);
      return (await clients.find(id)) ?? store.find(this.model, id);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return unstorableText(userCode) ? undefined : store.findByUserCode(this.model, userCode);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return unstorableText(uid) ? undefined : store.findByUid(this.model, uid);
    }

    // The provider refuses a used code or refresh token when it reads it, but two requests can both read it unused;
    // the second to mark it is refused here, and, as for any replay, the grant and all it issued are revoked.
    async consume(id: string): Promise<void> {
      const { consumedNow, grantId } = await store.consume(this.model, id);
      if (consumedNow) return;
      if (grantId !== null) {
        await Promise.all(GRANT_SOURCE_MODELS.map((model) => store.revokeByGrantId(model, grantId)));
        const replayed = this.model === 'AuthorizationCode' ? 'AuthorizationCode' : 'RefreshToken';
        await subjectChanges.apply(SubjectChange.accessTokens(), (write) =>
          grants.end(grantId, grantEndCause(Provider.ctx, replayed), write),
        );
      }
      throw new errors.InvalidGrant(`${this.model} already used`);
    }

    async destroy(id: string): Promise<void> {
      const stored = storedModel(this.model);
      if (stored.kind === 'other') return store.destroy(stored.model, id);
      const { model } = stored;
      // The provider's context says why a grant ends (revoked by its client, a sign-out, a replay): recorded with it.
      if (model === 'Grant')
        return subjectChanges.apply(SubjectChange.accessTokens(), (write) => grants.end(id, grantEndCause(Provider.ctx, null), write));
      await subjectChanges.apply(SubjectChange.accessTokens(), (write) => store.destroySubject(model, id, write));
    }

    revokeByGrantId(grantId: string): Promise<void> {
      return store.revokeByGrantId(this.model, grantId);
    }
  };
}

/** A session with no one signed in, no client's authorization and no logout under way: nothing a later request could read. */
function sessionHoldsNothing(payload: AdapterPayload): boolean {
  return !payload.accountId && !payload.state && Object.keys(payload.authorizations ?? {}).length === 0;
}
