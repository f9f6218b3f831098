import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface UnifiedUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  mergedInto: string | null;
  createdAt: Date;
}

export interface RoleBinding {
  id: string;
  uid: string;
  role: string;
  organizationId: string | null;
  grantedAt: Date;
}

/** An app the user is connected to, by a mirror record or by a link. */
export interface UserApp {
  registryId: string;
  via: 'mirror' | 'link';
}

// UPDATE and DELETE statements are wrapped as `WITH changed AS (...) SELECT * FROM changed`: TypeORM
// answers a bare UPDATE or DELETE with [rows, rowCount] instead of the rows.
const USER_COLUMNS = `uid, email, email_verified AS "emailVerified", display_name AS "displayName", merged_into AS "mergedInto",
  created_at AS "createdAt"`;
export const ROLE_BINDING_COLUMNS = 'id, uid, role, organization_id AS "organizationId", granted_at AS "grantedAt"';

/** Every query of unified users as such: resolution of merged uids, the user view, app links. */
@Injectable()
export class UnifiedUsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The user `uid` resolves to: itself, or the survivor it was merged into (aliases always point at a live user). */
  async findResolved(uid: string, manager: EntityManager = this.dataSource.manager): Promise<UnifiedUser | null> {
    const rows: UnifiedUser[] = await manager.query(
      `SELECT ${USER_COLUMNS} FROM unified_user
        WHERE uid = (SELECT coalesce(merged_into, uid) FROM unified_user WHERE uid = $1)`,
      [uid],
    );
    return rows[0] ?? null;
  }

  /** Share-locks the user, so it cannot be merged away until the transaction ends. */
  async lockForShare(manager: EntityManager, uid: string): Promise<UnifiedUser | null> {
    const rows: UnifiedUser[] = await manager.query(`SELECT ${USER_COLUMNS} FROM unified_user WHERE uid = $1 FOR SHARE`, [uid]);
    return rows[0] ?? null;
  }

  async aliasesOf(uid: string): Promise<string[]> {
    const rows: { uid: string }[] = await this.dataSource.query('SELECT uid FROM unified_user WHERE merged_into = $1 ORDER BY uid', [uid]);
    return rows.map((row) => row.uid);
  }

  /** The active apps the user is connected to, once per way it is connected. */
  async appsOf(uid: string): Promise<UserApp[]> {
    return this.dataSource.query(
      `SELECT DISTINCT m.registry_id AS "registryId", 'mirror' AS via FROM user_mirror m JOIN registered_app a USING (registry_id)
        WHERE m.uid = $1 AND a.deleted_at IS NULL
       UNION
       SELECT l.registry_id, 'link' AS via FROM app_link l JOIN registered_app a USING (registry_id)
        WHERE l.uid = $1 AND a.deleted_at IS NULL
       ORDER BY "registryId", via`,
      [uid],
    );
  }

  async roleBindingsOf(uid: string, manager: EntityManager = this.dataSource.manager): Promise<RoleBinding[]> {
    return manager.query(`SELECT ${ROLE_BINDING_COLUMNS} FROM role_binding WHERE uid = $1 ORDER BY id`, [uid]);
  }

  /** Share-locks an active (not deleted) registered app, so it cannot be deleted until the transaction ends. */
  /** Locks a live registry; answers its organization, or null when there is no such registry. */
  async lockActiveRegistry(manager: EntityManager, registryId: string): Promise<{ organizationId: string | null } | null> {
    const rows: { organizationId: string | null }[] = await manager.query(
      'SELECT organization_id AS "organizationId" FROM registered_app WHERE registry_id = $1 AND deleted_at IS NULL FOR SHARE',
      [registryId],
    );
    return rows[0] ?? null;
  }

  /** The organization of a registry, deleted or not; null for none. */
  async registryOrganization(manager: EntityManager, registryId: string): Promise<string | null> {
    const rows: { organizationId: string | null }[] = await manager.query(
      'SELECT organization_id AS "organizationId" FROM registered_app WHERE registry_id = $1',
      [registryId],
    );
    return rows[0]?.organizationId ?? null;
  }

  /** Links the user to the app; false when that link exists already. */
  async insertAppLink(manager: EntityManager, uid: string, registryId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'INSERT INTO app_link (uid, registry_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING registry_id',
      [uid, registryId],
    );
    return rows.length > 0;
  }

  async deleteAppLink(manager: EntityManager, uid: string, registryId: string): Promise<boolean> {
    const rows = await manager.query(
      'WITH deleted AS (DELETE FROM app_link WHERE uid = $1 AND registry_id = $2 RETURNING registry_id) SELECT * FROM deleted',
      [uid, registryId],
    );
    return rows.length > 0;
  }
}
