import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface ProjectRow {
  id: string;
  organization_id: string;
  name: string;
  currency: string;
  template_version: string;
  created_by: string;
  created_at: Date;
}

export interface ScenarioRow {
  id: string;
  project_id: string;
  name: string;
  branched_from_scenario_id: string | null;
  branched_from_revision: number | null;
  created_at: Date;
  current_revision: number;
}

export interface RevisionRow {
  scenario_id: string;
  revision: number;
  content: Record<string, unknown>;
  rules_digest: string;
  created_by: string;
  created_at: Date;
}

const SCENARIO_COLUMNS = `s.id, s.project_id, s.name, s.branched_from_scenario_id, s.branched_from_revision, s.created_at,
  (SELECT max(r.revision) FROM scenario_revision r WHERE r.scenario_id = s.id) AS current_revision`;

/** Every query of split projects, operating scenarios and their revisions; always within one organization. */
@Injectable()
export class SplitProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertProject(manager: EntityManager, project: Omit<ProjectRow, 'created_at'>): Promise<void> {
    await manager.query(
      `INSERT INTO split_project (id, organization_id, name, currency, template_version, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [project.id, project.organization_id, project.name, project.currency, project.template_version, project.created_by],
    );
  }

  async findProject(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<ProjectRow | null> {
    const rows: ProjectRow[] = await manager.query('SELECT * FROM split_project WHERE id = $1 AND organization_id = $2', [
      id,
      organizationId,
    ]);
    return rows[0] ?? null;
  }

  async listProjects(organizationId: string, afterId: string | undefined, limit: number): Promise<ProjectRow[]> {
    return this.dataSource.query(
      'SELECT * FROM split_project WHERE organization_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3',
      [organizationId, afterId ?? null, limit],
    );
  }

  async insertScenario(
    manager: EntityManager,
    scenario: {
      id: string;
      projectId: string;
      name: string;
      branchedFrom: { scenarioId: string; revision: number } | null;
      createdBy: string;
    },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO operating_scenario (id, project_id, name, branched_from_scenario_id, branched_from_revision, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        scenario.id,
        scenario.projectId,
        scenario.name,
        scenario.branchedFrom?.scenarioId ?? null,
        scenario.branchedFrom?.revision ?? null,
        scenario.createdBy,
      ],
    );
  }

  async insertRevision(manager: EntityManager, revision: Omit<RevisionRow, 'created_at'>): Promise<RevisionRow> {
    const rows: RevisionRow[] = await manager.query(
      `INSERT INTO scenario_revision (scenario_id, revision, content, rules_digest, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [revision.scenario_id, revision.revision, JSON.stringify(revision.content), revision.rules_digest, revision.created_by],
    );
    return rows[0]!;
  }

  /** A scenario of a project of the organization, or null (another organization's is not found either). */
  async findScenario(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<ScenarioRow | null> {
    const rows: ScenarioRow[] = await manager.query(
      `SELECT ${SCENARIO_COLUMNS} FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
        WHERE s.id = $1 AND p.organization_id = $2`,
      [id, organizationId],
    );
    return rows[0] ?? null;
  }

  /** Locks the scenario row, so revisions are numbered one after another. */
  async lockScenario(manager: EntityManager, organizationId: string, id: string): Promise<ScenarioRow | null> {
    const locked = await manager.query(
      `SELECT s.id FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
        WHERE s.id = $1 AND p.organization_id = $2 FOR UPDATE OF s`,
      [id, organizationId],
    );
    return locked.length > 0 ? this.findScenario(organizationId, id, manager) : null;
  }

  async listScenarios(projectId: string, afterId: string | undefined, limit: number): Promise<ScenarioRow[]> {
    return this.dataSource.query(
      `SELECT ${SCENARIO_COLUMNS} FROM operating_scenario s WHERE s.project_id = $1 AND ($2::uuid IS NULL OR s.id > $2) ORDER BY s.id LIMIT $3`,
      [projectId, afterId ?? null, limit],
    );
  }

  async findRevision(scenarioId: string, revision: number, manager: EntityManager = this.dataSource.manager): Promise<RevisionRow | null> {
    const rows: RevisionRow[] = await manager.query('SELECT * FROM scenario_revision WHERE scenario_id = $1 AND revision = $2', [
      scenarioId,
      revision,
    ]);
    return rows[0] ?? null;
  }

  /** The current revision of each scenario, in one query. */
  async findCurrentRevisions(scenarioIds: string[]): Promise<RevisionRow[]> {
    if (scenarioIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT DISTINCT ON (scenario_id) * FROM scenario_revision WHERE scenario_id = ANY($1::uuid[]) ORDER BY scenario_id, revision DESC`,
      [scenarioIds],
    );
  }

  async listRevisions(scenarioId: string): Promise<Omit<RevisionRow, 'content'>[]> {
    return this.dataSource.query(
      'SELECT scenario_id, revision, rules_digest, created_by, created_at FROM scenario_revision WHERE scenario_id = $1 ORDER BY revision',
      [scenarioId],
    );
  }
}
