import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ROLE_BINDING_COLUMNS, type RoleBinding } from '../unified-users/unified-users.repository';
import type { SubjectChangeWrite } from '../../access/subject-changes/subject-changes';

/** Every query of granting and revoking roles (reading a user's roles belongs to unified users). */
@Injectable()
export class RoleBindingsRepository {
  async organizationExists(manager: EntityManager, organizationId: string): Promise<boolean> {
    const rows = await manager.query('SELECT 1 FROM organization WHERE id = $1', [organizationId]);
    return rows.length > 0;
  }

  /** Inserts the binding; null when the user holds that role in that scope already. */
  async insert(
    manager: EntityManager,
    binding: { id: string; uid: string; role: string; organizationId: string | null },
    _write: SubjectChangeWrite,
  ): Promise<RoleBinding | null> {
    const rows: RoleBinding[] = await manager.query(
      `INSERT INTO role_binding (id, uid, role, organization_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (uid, role, organization_id) DO NOTHING RETURNING ${ROLE_BINDING_COLUMNS}`,
      [binding.id, binding.uid, binding.role, binding.organizationId],
    );
    return rows[0] ?? null;
  }

  async delete(manager: EntityManager, id: string, _write: SubjectChangeWrite): Promise<RoleBinding | null> {
    // Wrapped in a CTE: TypeORM answers a bare DELETE with [rows, rowCount].
    const rows: RoleBinding[] = await manager.query(
      `WITH deleted AS (DELETE FROM role_binding WHERE id = $1 RETURNING ${ROLE_BINDING_COLUMNS}) SELECT * FROM deleted`,
      [id],
    );
    return rows[0] ?? null;
  }
}
