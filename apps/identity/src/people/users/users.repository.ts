import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  APP_EMAIL_SCOPE,
  MIRROR_COLUMNS,
  MIRROR_RECORDS_BY_EXTERNAL_IDS,
  MIRROR_RECORDS_PAGE,
  UNREFERENCED_UNIFIED_USER_DELETE,
  VERIFIED_UNIFIED_USER,
} from './users.repository.sql';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

/** One mirror record: a partner app's user, linked to one unified user (`uid`). */
export interface MirrorRecord {
  id: string;
  registryId: string;
  externalId: string;
  email: string;
  emailVerified: boolean;
  displayName: string;
  locale: string;
  uid: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface MirrorFields {
  email: string;
  emailVerified: boolean;
  displayName: string;
  locale: string;
}

/** Every query of user mirror records and the unified users they link to. */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Locks the registry's app row against every other mirror write of that registry until the
   * transaction ends; false when the app does not exist (any more). NO KEY UPDATE, so inserts that
   * merely reference the app (foreign keys) are not held up.
   */
  /** Locks a live registry; answers its organization, or null when there is no such registry. */
  async lockRegistry(manager: EntityManager, registryId: string): Promise<{ organizationId: string | null } | null> {
    const rows: { organizationId: string | null }[] = await manager.query(
      'SELECT organization_id AS "organizationId" FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL FOR NO KEY UPDATE',
      [registryId],
    );
    return rows[0] ?? null;
  }

  async find(id: string): Promise<MirrorRecord | null> {
    const rows: MirrorRecord[] = await this.dataSource.query(`SELECT ${MIRROR_COLUMNS} FROM user_mirror WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The record, row-locked until the transaction ends (a merge cannot re-link it meanwhile). */
  async lock(manager: EntityManager, id: string): Promise<MirrorRecord | null> {
    const rows: MirrorRecord[] = await manager.query(`SELECT ${MIRROR_COLUMNS} FROM user_mirror WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async findByExternalIds(manager: EntityManager, registryId: string, externalIds: string[]): Promise<MirrorRecord[]> {
    return manager.query(MIRROR_RECORDS_BY_EXTERNAL_IDS, [registryId, externalIds]);
  }

  /** A registry's records in id order, optionally only those with `email` (case-insensitive). */
  async list(registryId: string, email: string | undefined, afterId: string | undefined, limit: number): Promise<MirrorRecord[]> {
    return this.dataSource.query(MIRROR_RECORDS_PAGE, [registryId, email ?? null, afterId ?? null, limit]);
  }

  async insert(
    manager: EntityManager,
    record: MirrorFields & { id: string; registryId: string; externalId: string; uid: string },
  ): Promise<MirrorRecord> {
    const rows: MirrorRecord[] = await manager.query(
      `INSERT INTO user_mirror (id, registry_id, external_id, email, email_verified, display_name, locale, uid)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${MIRROR_COLUMNS}`,
      [record.id, record.registryId, record.externalId, record.email, record.emailVerified, record.displayName, record.locale, record.uid],
    );
    return rows[0]!;
  }

  async update(manager: EntityManager, id: string, fields: MirrorFields): Promise<MirrorRecord> {
    // TypeORM answers an UPDATE or DELETE with [rows, affected count].
    const [rows]: [MirrorRecord[], number] = await manager.query(
      `UPDATE user_mirror SET email = $2, email_verified = $3, display_name = $4, locale = $5, updated_at = now()
        WHERE id = $1 RETURNING ${MIRROR_COLUMNS}`,
      [id, fields.email, fields.emailVerified, fields.displayName, fields.locale],
    );
    return rows[0]!;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query('DELETE FROM user_mirror WHERE id = $1', [id]);
  }

  /** The scope that vouches for the emails of a registry's records; null when the app does not exist. */
  async emailScopeOf(manager: EntityManager, registryId: string): Promise<string | null> {
    const rows: { scope: string }[] = await manager.query(
      `SELECT ${APP_EMAIL_SCOPE} AS scope FROM registered_app r WHERE r.registry_id = $1`,
      [registryId],
    );
    return rows[0]?.scope ?? null;
  }

  /**
   * The live unified user whose verified `email` the same scope vouched for (directly, or through a
   * user of that scope since merged into it), share-locked so that it cannot be removed (as an
   * orphan) before this transaction's link to it commits.
   */
  async findVerifiedUnifiedUser(manager: EntityManager, email: string, scope: string): Promise<string | null> {
    const rows: { uid: string }[] = await manager.query(VERIFIED_UNIFIED_USER, [email, scope]);
    return rows[0]?.uid ?? null;
  }

  /**
   * Inserts a unified user; false when its verified email is already taken by another live one of
   * the same scope (a concurrent transaction may have just created it: the partial unique index decides).
   */
  async insertUnifiedUser(
    manager: EntityManager,
    user: { uid: string; email: string; emailVerified: boolean; displayName: string; emailScope: string },
  ): Promise<boolean> {
    const rows = await manager.query(
      `INSERT INTO unified_user (uid, email, email_verified, display_name, email_scope) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email_scope, lower(email)) WHERE email_verified AND merged_into IS NULL DO NOTHING RETURNING uid`,
      [user.uid, user.email, user.emailVerified, user.displayName, user.emailScope],
    );
    return rows.length > 0;
  }

  /**
   * Deletes the unified user when nothing refers to it any more: no mirror record, app link, role
   * binding, agent's key it supervises, alias merged into it or merge record (which an unmerge needs).
   * The row lock comes first, so the checks below (a statement of their own) see every link committed
   * before it.
   */
  async deleteUnifiedUserIfUnreferenced(manager: EntityManager, uid: string, _write: SubjectChangeWrite): Promise<boolean> {
    await manager.query('SELECT uid FROM unified_user WHERE uid = $1 FOR UPDATE', [uid]);
    const [, deleted]: [unknown[], number] = await manager.query(UNREFERENCED_UNIFIED_USER_DELETE, [uid]);
    return deleted > 0;
  }
}
