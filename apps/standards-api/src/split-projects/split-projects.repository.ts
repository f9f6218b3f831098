import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ScenarioContent } from '@stdreg/split-engine';

export interface SplitProject {
  id: string;
  organizationId: string;
  name: string;
  currency: string;
  templateVersion: string;
  createdBy: string;
  createdAt: Date;
}

export interface OperatingScenario {
  id: string;
  projectId: string;
  name: string;
  branchedFrom: { scenarioId: string; revision: number } | null;
  createdAt: Date;
  currentRevision: number;
}

export interface ScenarioRevision {
  scenarioId: string;
  revision: number;
  /** Validated by split-engine before it was stored. */
  content: ScenarioContent;
  rulesDigest: string;
  createdBy: string;
  createdAt: Date;
}

export type NewSplitProject = Omit<SplitProject, 'createdAt'>;
export type NewScenarioRevision = Omit<ScenarioRevision, 'createdAt'>;
export type ScenarioRevisionSummary = Omit<ScenarioRevision, 'content'>;

// Each query names its columns and their domain names; a repository hands out records, never rows.
const PROJECT = `id, organization_id AS "organizationId", name, currency, template_version AS "templateVersion", created_by AS "createdBy",
  created_at AS "createdAt"`;
const SCENARIO = `s.id, s.project_id AS "projectId", s.name,
  CASE WHEN s.branched_from_scenario_id IS NULL THEN NULL
       ELSE json_build_object('scenarioId', s.branched_from_scenario_id, 'revision', s.branched_from_revision) END AS "branchedFrom",
  s.created_at AS "createdAt",
  (SELECT max(r.revision) FROM scenario_revision r WHERE r.scenario_id = s.id) AS "currentRevision"`;
const REVISION_SUMMARY = `scenario_id AS "scenarioId", revision, rules_digest AS "rulesDigest", created_by AS "createdBy", created_at AS "createdAt"`;
const REVISION = `${REVISION_SUMMARY}, content`;

/** Every query of split projects, operating scenarios and their revisions; always within one organization. */
@Injectable()
export class SplitProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertProject(manager: EntityManager, project: NewSplitProject): Promise<void> {
    await manager.query(
      `INSERT INTO split_project (id, organization_id, name, currency, template_version, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [project.id, project.organizationId, project.name, project.currency, project.templateVersion, project.createdBy],
    );
  }

  async findProject(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<SplitProject | null> {
    const rows: SplitProject[] = await manager.query(`SELECT ${PROJECT} FROM split_project WHERE id = $1 AND organization_id = $2`, [
      id,
      organizationId,
    ]);
    return rows[0] ?? null;
  }

  /**
   * A page of the organization's projects in id order. Written as a row comparison on (organization_id,
   * id) so that it is always a range of split_project_organization: with `id > $2` alone the planner read
   * an organization that owns most projects along the primary key, skipping every other organization's
   * projects that come before in id order (issue 21).
   */
  async listProjects(organizationId: string, afterId: string | undefined, limit: number): Promise<SplitProject[]> {
    return this.dataSource.query(
      `SELECT ${PROJECT} FROM split_project
        WHERE organization_id = $1 AND (organization_id, id) > ($1, coalesce($2::uuid, '00000000-0000-0000-0000-000000000000'))
        ORDER BY organization_id, id LIMIT $3`,
      [organizationId, afterId ?? null, limit],
    );
  }

  async insertScenario(
    manager: EntityManager,
    scenario: Pick<OperatingScenario, 'id' | 'projectId' | 'name' | 'branchedFrom'> & { createdBy: string },
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

  async insertRevision(manager: EntityManager, revision: NewScenarioRevision): Promise<ScenarioRevision> {
    const rows: ScenarioRevision[] = await manager.query(
      `INSERT INTO scenario_revision (scenario_id, revision, content, rules_digest, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${REVISION}`,
      [revision.scenarioId, revision.revision, JSON.stringify(revision.content), revision.rulesDigest, revision.createdBy],
    );
    return rows[0]!;
  }

  /** A scenario of a project of the organization, or null (another organization's is not found either). */
  async findScenario(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OperatingScenario | null> {
    const rows: OperatingScenario[] = await manager.query(
      `SELECT ${SCENARIO} FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
        WHERE s.id = $1 AND p.organization_id = $2`,
      [id, organizationId],
    );
    return rows[0] ?? null;
  }

  /** Locks the scenario row, so revisions are numbered one after another. */
  async lockScenario(manager: EntityManager, organizationId: string, id: string): Promise<OperatingScenario | null> {
    const locked: unknown[] = await manager.query(
      `SELECT s.id FROM operating_scenario s JOIN split_project p ON p.id = s.project_id
        WHERE s.id = $1 AND p.organization_id = $2 FOR UPDATE OF s`,
      [id, organizationId],
    );
    return locked.length > 0 ? this.findScenario(organizationId, id, manager) : null;
  }

  async listScenarios(projectId: string, afterId: string | undefined, limit: number): Promise<OperatingScenario[]> {
    return this.dataSource.query(
      `SELECT ${SCENARIO} FROM operating_scenario s WHERE s.project_id = $1 AND ($2::uuid IS NULL OR s.id > $2) ORDER BY s.id LIMIT $3`,
      [projectId, afterId ?? null, limit],
    );
  }

  async findRevision(
    scenarioId: string,
    revision: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ScenarioRevision | null> {
    const rows: ScenarioRevision[] = await manager.query(
      `SELECT ${REVISION} FROM scenario_revision WHERE scenario_id = $1 AND revision = $2`,
      [scenarioId, revision],
    );
    return rows[0] ?? null;
  }

  /**
   * The current revision of each scenario, in one query: one backward primary-key probe per scenario,
   * so the cost follows the page, not the length of the scenarios' histories (issue 21).
   */
  async findCurrentRevisions(scenarioIds: string[]): Promise<ScenarioRevision[]> {
    if (scenarioIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT current.* FROM unnest($1::uuid[]) AS s (id)
         CROSS JOIN LATERAL (SELECT ${REVISION} FROM scenario_revision WHERE scenario_id = s.id ORDER BY revision DESC LIMIT 1) current`,
      [scenarioIds],
    );
  }

  /** Up to `limit` revisions after `afterRevision`, oldest first: a forward probe of the primary key. */
  async listRevisions(scenarioId: string, afterRevision: number, limit: number): Promise<ScenarioRevisionSummary[]> {
    return this.dataSource.query(
      `SELECT ${REVISION_SUMMARY} FROM scenario_revision WHERE scenario_id = $1 AND revision > $2 ORDER BY revision LIMIT $3`,
      [scenarioId, afterRevision, limit],
    );
  }
}
