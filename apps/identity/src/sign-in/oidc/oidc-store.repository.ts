import { Injectable } from '@nestjs/common';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';
import type { AdapterPayload } from 'oidc-provider';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

/** Models whose removal ends access tokens the decision endpoint may hold a lease on (TokenSubjectLeases). */
const SUBJECT_MODELS = ['Grant', 'Client'] as const;
export type SubjectModel = (typeof SUBJECT_MODELS)[number];

declare const endsNoAccessToken: unique symbol;
/** Any other model (a session, a code, an interaction): a name `storedModel` sorted, which `destroy` takes. */
export type OtherModel = string & { readonly [endsNoAccessToken]: true };

/**
 * Sorts a model name: a grant or a client, removed only with a SubjectChangeWrite (`destroySubject`), or
 * any other, removed by `destroy`. So `destroy('Grant', id)` does not compile.
 */
export function storedModel(model: string): { kind: 'subject'; model: SubjectModel } | { kind: 'other'; model: OtherModel } {
  return (SUBJECT_MODELS as readonly string[]).includes(model)
    ? { kind: 'subject', model: model as SubjectModel }
    : { kind: 'other', model: model as OtherModel };
}

/** A grant ended with all of a person's sign-ins (a new password, the person's deletion): whose, and for which client. */
export interface EndedGrant {
  grantId: string;
  clientId: string;
  accountId: string;
}

/** Every query of what the OpenID Provider stores: one row per model and id, expiring. */
@Injectable()
export class OidcStoreRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(model: string, id: string, payload: AdapterPayload, expiresInSeconds: number | undefined): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO oidc_model (model, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (model, id) DO UPDATE
         SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
             uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [
        model,
        id,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.userCode ?? null,
        payload.uid ?? null,
        expiresInSeconds ?? null,
      ],
    );
  }

  async find(model: string, id: string): Promise<AdapterPayload | undefined> {
    return this.findBy(model, 'id', id);
  }

  async findByUid(model: string, uid: string): Promise<AdapterPayload | undefined> {
    return this.findBy(model, 'uid', uid);
  }

  async findByUserCode(model: string, userCode: string): Promise<AdapterPayload | undefined> {
    return this.findBy(model, 'user_code', userCode);
  }

  /**
   * Marks a code or token used, once: of two redemptions at once, the one that waited for the other's row lock finds
   * it used. Answers whether this call used it, and the grant it belongs to.
   */
  async consume(model: string, id: string): Promise<{ consumedNow: boolean; grantId: string | null }> {
    const consumed: { grantId: string | null }[] = await this.dataSource.query(
      `WITH consumed AS (
         UPDATE oidc_model SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING grant_id AS "grantId"
       ) SELECT * FROM consumed`,
      [model, id],
    );
    if (consumed[0]) return { consumedNow: true, grantId: consumed[0].grantId };
    const found: { grantId: string | null }[] = await this.dataSource.query(
      'SELECT grant_id AS "grantId" FROM oidc_model WHERE model = $1 AND id = $2',
      [model, id],
    );
    return { consumedNow: false, grantId: found[0]?.grantId ?? null };
  }

  /**
   * Removes a model that ends no access token (a session, a code, an interaction); see `destroySubject`.
   * The type refuses a grant or a client; the check stays for a name cast past it.
   */
  async destroy(model: OtherModel, id: string): Promise<void> {
    if (storedModel(model).kind === 'subject') throw new Error(`a ${model} ends access tokens: remove it with destroySubject`);
    await this.dataSource.query('DELETE FROM oidc_model WHERE model = $1 AND id = $2', [model, id]);
  }

  /** Removes a grant or a client, which ends the access tokens issued under it. */
  async destroySubject(model: SubjectModel, id: string, _write: SubjectChangeWrite): Promise<void> {
    await this.dataSource.query('DELETE FROM oidc_model WHERE model = $1 AND id = $2', [model, id]);
  }

  /** Removes a grant, answering whose it was and for which client; null when there was none. */
  async destroyGrant(manager: EntityManager, grantId: string, _write: SubjectChangeWrite): Promise<Omit<EndedGrant, 'grantId'> | null> {
    const rows: Omit<EndedGrant, 'grantId'>[] = await manager.query(
      `WITH ended AS (DELETE FROM oidc_model WHERE model = 'Grant' AND id = $1 RETURNING payload)
       SELECT payload->>'clientId' AS "clientId", payload->>'accountId' AS "accountId" FROM ended`,
      [grantId],
    );
    return rows[0] ?? null;
  }

  /**
   * Ends every sign-in of a person (the uid, even one just deleted, and every uid merged with it, as a session's `sub`
   * may be either): their grants with what each issued, and their sessions. Answers the grants that ended, each with its client.
   */
  async endSignInsOf(manager: EntityManager, uid: string, _write: SubjectChangeWrite): Promise<EndedGrant[]> {
    return manager.query(
      `WITH people AS (
         SELECT $1::text AS uid
         UNION SELECT p.uid::text FROM unified_user p JOIN unified_user u ON coalesce(p.merged_into, p.uid) = coalesce(u.merged_into, u.uid)
          WHERE u.uid = $1::uuid
       ), grants AS (
         DELETE FROM oidc_model WHERE model = 'Grant' AND payload->>'accountId' IN (SELECT uid FROM people)
         RETURNING id, payload->>'clientId' AS client_id, payload->>'accountId' AS account_id
       ), issued AS (
         DELETE FROM oidc_model WHERE model IN ('AccessToken', 'AuthorizationCode', 'RefreshToken') AND grant_id IN (SELECT id FROM grants)
       ), sessions AS (
         DELETE FROM oidc_model WHERE model = 'Session' AND payload->>'accountId' IN (SELECT uid FROM people)
       ) SELECT id AS "grantId", client_id AS "clientId", account_id AS "accountId" FROM grants ORDER BY id`,
      [uid],
    );
  }

  async revokeByGrantId(model: string, grantId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM oidc_model WHERE model = $1 AND grant_id = $2', [model, grantId]);
  }

  /**
   * An agent client a person granted something: it, and its registration access token, no longer expire
   * (see UNUSED_AGENT_CLIENT_SECONDS). A client read from the registered apps has no row here.
   */
  async keepClient(clientId: string): Promise<void> {
    // The token is looked for only when the client had an expiry: a partner app's grant, or a later one, reads one row.
    await this.dataSource.query(
      `WITH kept AS (UPDATE oidc_model SET expires_at = NULL WHERE model = 'Client' AND id = $1 AND expires_at IS NOT NULL RETURNING id)
       UPDATE oidc_model SET expires_at = NULL
        WHERE EXISTS (SELECT 1 FROM kept) AND model = 'RegistrationAccessToken' AND payload->>'clientId' = $1 AND expires_at IS NOT NULL`,
      [clientId],
    );
  }

  /** Whether a grant is still in force: not revoked (by revocation, logout or a replayed code) and not expired. */
  async grantExists(grantId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM oidc_model WHERE model = 'Grant' AND id = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [grantId],
    );
    return rows.length > 0;
  }

  /** Removes rows that expired more than a day ago (the provider never reads them: `find` filters by expiry). */
  async purgeExpired(): Promise<number> {
    const rows: unknown[] = await maintenanceTransaction(this.dataSource, (manager) =>
      manager.query(`WITH purged AS (DELETE FROM oidc_model WHERE expires_at < now() - interval '1 day' RETURNING 1) SELECT * FROM purged`),
    );
    return rows.length;
  }

  private async findBy(model: string, column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const rows: { payload: AdapterPayload; consumed: number | null }[] = await this.dataSource.query(
      `SELECT payload, extract(epoch FROM consumed_at)::bigint AS consumed FROM oidc_model
        WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [model, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
  }
}
