import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ScenarioContent } from '@stdreg/split-engine';

export interface RuleVersion {
  projectId: string;
  version: number;
  scenarioId: string;
  revision: number;
  rulesDigest: string;
  /** The scenario content of that revision, frozen. */
  rules: ScenarioContent;
  effectiveFrom: Date;
  createdBy: string;
  createdAt: Date;
}

export type NewRuleVersion = Omit<RuleVersion, 'createdAt'>;

const RULE_VERSION = `project_id AS "projectId", version, scenario_id AS "scenarioId", revision, rules_digest AS "rulesDigest", rules,
  effective_from AS "effectiveFrom", created_by AS "createdBy", created_at AS "createdAt"`;

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
  ): Promise<Pick<RuleVersion, 'version' | 'effectiveFrom'> | null> {
    const rows: Pick<RuleVersion, 'version' | 'effectiveFrom'>[] = await manager.query(
      'SELECT version, effective_from AS "effectiveFrom" FROM rule_version WHERE project_id = $1 ORDER BY version DESC LIMIT 1',
      [projectId],
    );
    return rows[0] ?? null;
  }

  async insert(manager: EntityManager, version: NewRuleVersion): Promise<RuleVersion> {
    const rows: RuleVersion[] = await manager.query(
      `INSERT INTO rule_version (project_id, version, scenario_id, revision, rules_digest, rules, effective_from, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${RULE_VERSION}`,
      [
        version.projectId,
        version.version,
        version.scenarioId,
        version.revision,
        version.rulesDigest,
        JSON.stringify(version.rules),
        version.effectiveFrom,
        version.createdBy,
      ],
    );
    return rows[0]!;
  }

  async find(projectId: string, version: number): Promise<RuleVersion | null> {
    const rows: RuleVersion[] = await this.dataSource.query(
      `SELECT ${RULE_VERSION} FROM rule_version WHERE project_id = $1 AND version = $2`,
      [projectId, version],
    );
    return rows[0] ?? null;
  }

  async list(projectId: string, afterVersion: number, limit: number): Promise<RuleVersion[]> {
    return this.dataSource.query(
      `SELECT ${RULE_VERSION} FROM rule_version WHERE project_id = $1 AND version > $2 ORDER BY version LIMIT $3`,
      [projectId, afterVersion, limit],
    );
  }
}
