import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

/** A row deleted as a duplicate, exactly as stored (jsonb keeps microsecond timestamps as text). */
export type RemovedRow<Columns> = Columns & Record<string, unknown>;

/** What one merge changed, recorded in user_merge.moved so that an unmerge can undo exactly that. */
export interface MergeMoves {
  /** user_mirror ids whose uid went from the merged user to the survivor. */
  mirrors: string[];
  /** registry ids of app links that went from the merged user to the survivor. */
  appLinks: string[];
  /** role bindings that went from the merged user to the survivor. */
  roleBindings: { id: string; role: string; organizationId: string | null }[];
  /** The merged user's app links the survivor had too: deleted, to be re-inserted on unmerge. */
  removedAppLinks: RemovedRow<{ uid: string; registry_id: string; linked_at: string }>[];
  /** The merged user's role bindings the survivor had too: deleted, to be re-inserted on unmerge. */
  removedRoleBindings: RemovedRow<{ id: string; uid: string; role: string; organization_id: string | null; granted_at: string }>[];
  /** Users merged into the merged user earlier, re-pointed to the survivor. */
  aliases: string[];
}

/** A recorded merge; `moved` is kept as stored (its removed rows carry their table's column names, for re-insertion). */
export interface UserMerge {
  id: string;
  survivorUid: string;
  mergedUid: string;
  moved: MergeMoves;
  mergedAt: Date;
  unmergedAt: Date | null;
}

export interface LockedUser {
  uid: string;
  mergedInto: string | null;
}

const MERGE_COLUMNS = `id, survivor_uid AS "survivorUid", merged_uid AS "mergedUid", moved, merged_at AS "mergedAt",
  unmerged_at AS "unmergedAt"`;

// UPDATE and DELETE statements are wrapped as `WITH changed AS (...) SELECT ... FROM changed`: TypeORM
// answers a bare UPDATE or DELETE with [rows, rowCount] instead of the rows.

/** Every query of merging and unmerging unified users (they move rows of several tables). */
@Injectable()
export class MergesRepository {
  /**
   * Takes the registry lock every mirror write takes first (see UsersRepository.lockRegistry), on
   * each registry holding mirror records of `uid` (or the records `mirrorIds`), in registry order:
   * merges then queue behind those writes instead of deadlocking with them over the records.
   */
  /** The organizations whose apps hold a mirror record of any of these people. */
  async organizationsMirroring(manager: EntityManager, uids: string[]): Promise<string[]> {
    const rows: { organizationId: string }[] = await manager.query(
      `SELECT DISTINCT r.organization_id AS "organizationId" FROM user_mirror m JOIN registered_app r ON r.registry_id = m.registry_id
       WHERE m.uid = ANY($1::uuid[]) AND r.organization_id IS NOT NULL ORDER BY 1`,
      [uids],
    );
    return rows.map((row) => row.organizationId);
  }

  async lockMirrorRegistries(manager: EntityManager, of: { uid: string } | { mirrorIds: string[] }): Promise<void> {
    const [condition, parameter] = 'uid' in of ? ['uid = $1', of.uid] : ['id = ANY($1::uuid[])', of.mirrorIds];
    await manager.query(
      `SELECT registry_id FROM registered_app WHERE registry_id IN (SELECT registry_id FROM user_mirror WHERE ${condition})
        ORDER BY registry_id FOR NO KEY UPDATE`,
      [parameter],
    );
  }

  async lockUser(manager: EntityManager, uid: string): Promise<LockedUser | null> {
    const rows: LockedUser[] = await manager.query('SELECT uid, merged_into AS "mergedInto" FROM unified_user WHERE uid = $1 FOR UPDATE', [
      uid,
    ]);
    return rows[0] ?? null;
  }

  /** Moves everything of `mergedUid` to `survivorUid`, dropping the duplicates, and says what it did. */
  async moveAll(manager: EntityManager, mergedUid: string, survivorUid: string, _write: SubjectChangeWrite): Promise<MergeMoves> {
    const params = [mergedUid, survivorUid];
    const removedAppLinks: { row: MergeMoves['removedAppLinks'][number] }[] = await manager.query(
      `WITH changed AS (
         DELETE FROM app_link m USING app_link s WHERE m.uid = $1 AND s.uid = $2 AND s.registry_id = m.registry_id RETURNING m.*
       ) SELECT to_jsonb(changed) AS row FROM changed ORDER BY registry_id`,
      params,
    );
    const removedRoleBindings: { row: MergeMoves['removedRoleBindings'][number] }[] = await manager.query(
      `WITH changed AS (
         DELETE FROM role_binding m USING role_binding s
          WHERE m.uid = $1 AND s.uid = $2 AND s.role = m.role AND s.organization_id IS NOT DISTINCT FROM m.organization_id
         RETURNING m.*
       ) SELECT to_jsonb(changed) AS row FROM changed ORDER BY id`,
      params,
    );
    const mirrors: { id: string }[] = await manager.query(
      'WITH changed AS (UPDATE user_mirror SET uid = $2 WHERE uid = $1 RETURNING id) SELECT id FROM changed ORDER BY id',
      params,
    );
    const appLinks: { registry_id: string }[] = await manager.query(
      'WITH changed AS (UPDATE app_link SET uid = $2 WHERE uid = $1 RETURNING registry_id) SELECT registry_id FROM changed ORDER BY registry_id',
      params,
    );
    const roleBindings: { id: string; role: string; organization_id: string | null }[] = await manager.query(
      'WITH changed AS (UPDATE role_binding SET uid = $2 WHERE uid = $1 RETURNING id, role, organization_id) SELECT * FROM changed ORDER BY id',
      params,
    );
    const aliases: { uid: string }[] = await manager.query(
      'WITH changed AS (UPDATE unified_user SET merged_into = $2 WHERE merged_into = $1 RETURNING uid) SELECT uid FROM changed ORDER BY uid',
      params,
    );
    await manager.query('UPDATE unified_user SET merged_into = $2 WHERE uid = $1', params);
    return {
      mirrors: mirrors.map((row) => row.id),
      appLinks: appLinks.map((row) => row.registry_id),
      roleBindings: roleBindings.map((row) => ({ id: row.id, role: row.role, organizationId: row.organization_id })),
      removedAppLinks: removedAppLinks.map((row) => row.row),
      removedRoleBindings: removedRoleBindings.map((row) => row.row),
      aliases: aliases.map((row) => row.uid),
    };
  }

  /**
   * Undoes `moveAll` from its record. Rows that are no longer with the survivor (deleted since) are
   * left alone; the answer lists what actually went back.
   */
  async moveBack(
    manager: EntityManager,
    merge: UserMerge,
    _write: SubjectChangeWrite,
  ): Promise<{ mirrors: string[]; appLinks: string[]; roleBindings: string[]; aliases: string[] }> {
    const { moved } = merge;
    const params = [merge.mergedUid, merge.survivorUid];
    const aliases: { uid: string }[] = await manager.query(
      `WITH changed AS (UPDATE unified_user SET merged_into = $1 WHERE merged_into = $2 AND uid = ANY($3::uuid[]) RETURNING uid)
       SELECT uid FROM changed ORDER BY uid`,
      [...params, moved.aliases],
    );
    const mirrors: { id: string }[] = await manager.query(
      'WITH changed AS (UPDATE user_mirror SET uid = $1 WHERE uid = $2 AND id = ANY($3::uuid[]) RETURNING id) SELECT id FROM changed ORDER BY id',
      [...params, moved.mirrors],
    );
    const appLinks: { registry_id: string }[] = await manager.query(
      `WITH changed AS (UPDATE app_link SET uid = $1 WHERE uid = $2 AND registry_id = ANY($3::text[]) RETURNING registry_id)
       SELECT registry_id FROM changed ORDER BY registry_id`,
      [...params, moved.appLinks],
    );
    const roleBindings: { id: string }[] = await manager.query(
      'WITH changed AS (UPDATE role_binding SET uid = $1 WHERE uid = $2 AND id = ANY($3::uuid[]) RETURNING id) SELECT id FROM changed ORDER BY id',
      [...params, moved.roleBindings.map((binding) => binding.id)],
    );
    await manager.query('INSERT INTO app_link SELECT * FROM jsonb_populate_recordset(NULL::app_link, $1::jsonb)', [
      JSON.stringify(moved.removedAppLinks),
    ]);
    await manager.query('INSERT INTO role_binding SELECT * FROM jsonb_populate_recordset(NULL::role_binding, $1::jsonb)', [
      JSON.stringify(moved.removedRoleBindings),
    ]);
    return {
      mirrors: mirrors.map((row) => row.id),
      appLinks: appLinks.map((row) => row.registry_id),
      roleBindings: roleBindings.map((row) => row.id),
      aliases: aliases.map((row) => row.uid),
    };
  }

  /** Another live user of the same scope holding `uid`'s verified email (possible once `uid` was merged away), which blocks its return. */
  async verifiedEmailHolder(manager: EntityManager, uid: string): Promise<string | null> {
    const rows: { uid: string }[] = await manager.query(
      `SELECT other.uid FROM unified_user self
         JOIN unified_user other ON other.email_scope = self.email_scope AND lower(other.email) = lower(self.email)
        WHERE self.uid = $1 AND self.email_verified AND other.email_verified AND other.merged_into IS NULL AND other.uid <> self.uid`,
      [uid],
    );
    return rows[0]?.uid ?? null;
  }

  /**
   * Makes an alias a user of its own again; false when its verified email was taken meanwhile (the unique index decides).
   * Its uid stops resolving to the survivor (and the survivor's roles), so it changes a subject.
   */
  async release(manager: EntityManager, uid: string, _write: SubjectChangeWrite): Promise<boolean> {
    try {
      await manager.query('UPDATE unified_user SET merged_into = NULL WHERE uid = $1', [uid]);
      return true;
    } catch (error) {
      if ((error as { constraint?: string }).constraint === 'unified_user_verified_email') return false;
      throw error;
    }
  }

  /** Records a merge; merged_at is taken now, after the locks, so merges into one survivor are ordered by it. */
  async insertMerge(
    manager: EntityManager,
    merge: { id: string; survivorUid: string; mergedUid: string; moved: MergeMoves },
  ): Promise<UserMerge> {
    const rows: UserMerge[] = await manager.query(
      `INSERT INTO user_merge (id, survivor_uid, merged_uid, moved, merged_at) VALUES ($1, $2, $3, $4, clock_timestamp()) RETURNING ${MERGE_COLUMNS}`,
      [merge.id, merge.survivorUid, merge.mergedUid, JSON.stringify(merge.moved)],
    );
    return rows[0]!;
  }

  async lockMerge(manager: EntityManager, id: string): Promise<UserMerge | null> {
    const rows: UserMerge[] = await manager.query(`SELECT ${MERGE_COLUMNS} FROM user_merge WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  /** The merge that made `mergedUid` an alias and is still in force. */
  async findActiveMergeOf(manager: EntityManager, mergedUid: string): Promise<UserMerge | null> {
    const rows: UserMerge[] = await manager.query(
      `SELECT ${MERGE_COLUMNS} FROM user_merge WHERE merged_uid = $1 AND unmerged_at IS NULL ORDER BY merged_at DESC LIMIT 1`,
      [mergedUid],
    );
    return rows[0] ?? null;
  }

  /** Merges into the same survivor after `merge`, still in force. */
  async laterActiveMergesInto(manager: EntityManager, merge: UserMerge): Promise<UserMerge[]> {
    return manager.query(
      `SELECT ${MERGE_COLUMNS} FROM user_merge
        WHERE survivor_uid = $1 AND unmerged_at IS NULL AND id <> $2 AND merged_at > (SELECT merged_at FROM user_merge WHERE id = $2)
        ORDER BY merged_at`,
      [merge.survivorUid, merge.id],
    );
  }

  async markUnmerged(manager: EntityManager, id: string): Promise<UserMerge> {
    const rows: UserMerge[] = await manager.query(
      `WITH changed AS (UPDATE user_merge SET unmerged_at = clock_timestamp() WHERE id = $1 RETURNING ${MERGE_COLUMNS}) SELECT * FROM changed`,
      [id],
    );
    return rows[0]!;
  }
}
