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

export interface ActivationChallengeRow {
  token_sha256: string;
  project_id: string;
  subject: string;
  scenario_id: string;
  revision: number;
  rules_digest: string;
  effective_from: Date;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** Every query of rule versions and activation challenges. */
@Injectable()
export class RuleVersionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the project row: activations and version numbering of one project happen one at a time. */
  async lockProject(manager: EntityManager, organizationId: string, projectId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT id FROM split_project WHERE id = $1 AND organization_id = $2 FOR UPDATE', [projectId, organizationId]);
    return rows.length > 0;
  }

  async latest(projectId: string, manager: EntityManager = this.dataSource.manager): Promise<Pick<RuleVersionRow, 'version' | 'effective_from'> | null> {
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
      [row.project_id, row.version, row.scenario_id, row.revision, row.rules_digest, JSON.stringify(row.rules), row.effective_from, row.created_by],
    );
    return rows[0]!;
  }

  async find(projectId: string, version: number): Promise<RuleVersionRow | null> {
    const rows: RuleVersionRow[] = await this.dataSource.query('SELECT * FROM rule_version WHERE project_id = $1 AND version = $2', [projectId, version]);
    return rows[0] ?? null;
  }

  async list(projectId: string, afterVersion: number, limit: number): Promise<RuleVersionRow[]> {
    return this.dataSource.query('SELECT * FROM rule_version WHERE project_id = $1 AND version > $2 ORDER BY version LIMIT $3', [projectId, afterVersion, limit]);
  }

  async insertChallenge(challenge: Omit<ActivationChallengeRow, 'created_at' | 'used_at'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO activation_challenge (token_sha256, project_id, subject, scenario_id, revision, rules_digest, effective_from, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [challenge.token_sha256, challenge.project_id, challenge.subject, challenge.scenario_id, challenge.revision, challenge.rules_digest, challenge.effective_from, challenge.expires_at],
    );
  }

  async lockChallenge(manager: EntityManager, tokenSha256: string, projectId: string): Promise<ActivationChallengeRow | null> {
    const rows: ActivationChallengeRow[] = await manager.query(
      'SELECT * FROM activation_challenge WHERE token_sha256 = $1 AND project_id = $2 FOR UPDATE',
      [tokenSha256, projectId],
    );
    return rows[0] ?? null;
  }

  async spendChallenge(manager: EntityManager, tokenSha256: string): Promise<void> {
    await manager.query('UPDATE activation_challenge SET used_at = now() WHERE token_sha256 = $1 AND used_at IS NULL', [tokenSha256]);
  }

}
