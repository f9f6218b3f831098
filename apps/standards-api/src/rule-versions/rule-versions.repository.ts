import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface RuleVersionRow {
  project_id: string;
  version: number;
  scenario_id: string;
  revision: number;
  rules_digest: string;
  rules: Record<string, unknown>;
  effective_from: Date;
  created_by: string;
  created_at: Date;
}

/** Every query of rule versions. */
@Injectable()
export class RuleVersionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the project row: activations and version numbering of one project happen one at a time. */
  async lockProject(manager: EntityManager, organizationId: string, projectId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT id FROM split_project WHERE id = $1 AND organization_id = $2 FOR UPDATE', [
      projectId,
      organizationId,
    ]);
    return rows.length > 0;
  }

  async latest(
    projectId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Pick<RuleVersionRow, 'version' | 'effective_from'> | null> {
    const rows: Pick<RuleVersionRow, 'version' | 'effective_from'>[] = await manager.query(
      'SELECT version, effective_from FROM rule_version WHERE project_id = $1 ORDER BY version DESC LIMIT 1',
      [projectId],
    );
    return rows[0] ?? null;
  }

  async insert(manager: EntityManager, row: Omit<RuleVersionRow, 'created_at'>): Promise<RuleVersionRow> {
    const rows: RuleVersionRow[] = await manager.query(
      `INSERT INTO rule_version (project_id, version, scenario_id, revision, rules_digest, rules, effective_from, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        row.project_id,
        row.version,
        row.scenario_id,
        row.revision,
        row.rules_digest,
        JSON.stringify(row.rules),
        row.effective_from,
        row.created_by,
      ],
    );
    return rows[0]!;
  }

  async find(projectId: string, version: number): Promise<RuleVersionRow | null> {
    const rows: RuleVersionRow[] = await this.dataSource.query('SELECT * FROM rule_version WHERE project_id = $1 AND version = $2', [
      projectId,
      version,
    ]);
    return rows[0] ?? null;
  }

  async list(projectId: string, afterVersion: number, limit: number): Promise<RuleVersionRow[]> {
    return this.dataSource.query('SELECT * FROM rule_version WHERE project_id = $1 AND version > $2 ORDER BY version LIMIT $3', [
      projectId,
      afterVersion,
      limit,
    ]);
  }
}
