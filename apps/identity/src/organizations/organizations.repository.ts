import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

/** Every query of organizations. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, id: string, name: string): Promise<OrganizationRow> {
    const rows: OrganizationRow[] = await manager.query('INSERT INTO organization (id, name) VALUES ($1, $2) RETURNING *', [id, name]);
    return rows[0]!;
  }

  async find(id: string): Promise<OrganizationRow | null> {
    const rows: OrganizationRow[] = await this.dataSource.query('SELECT * FROM organization WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async list(afterId: string | undefined, limit: number): Promise<OrganizationRow[]> {
    return this.dataSource.query('SELECT * FROM organization WHERE ($1::uuid IS NULL OR id > $1) ORDER BY id LIMIT $2', [
      afterId ?? null,
      limit,
    ]);
  }
}
