import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

const ORGANIZATION_COLUMNS = 'id, name, created_at AS "createdAt"';

/** Every query of organizations. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, id: string, name: string): Promise<Organization> {
    const rows: Organization[] = await manager.query(
      `INSERT INTO organization (id, name) VALUES ($1, $2) RETURNING ${ORGANIZATION_COLUMNS}`,
      [id, name],
    );
    return rows[0]!;
  }

  async find(id: string): Promise<Organization | null> {
    const rows: Organization[] = await this.dataSource.query(`SELECT ${ORGANIZATION_COLUMNS} FROM organization WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async list(afterId: string | undefined, limit: number): Promise<Organization[]> {
    return this.dataSource.query(
      `SELECT ${ORGANIZATION_COLUMNS} FROM organization WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [afterId ?? null, limit],
    );
  }
}
