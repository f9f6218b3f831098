import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ScenarioContent } from '@stdreg/split-engine';
import {
  COUNT_DRAFT_PROJECTS,
  COUNT_SCENARIOS,
  FIND_CURRENT_REVISIONS,
  FIND_PROJECT,
  FIND_REVISION,
  FIND_SCENARIO,
  HAS_RULE_VERSION,
  HOLD_PROJECT_TO_DRAFT,
  INSERT_PROJECT,
  INSERT_REVISION,
  INSERT_SCENARIO,
  LIST_PROJECTS,
  LIST_REVISIONS,
  LIST_SCENARIOS,
  LOCK_ORGANIZATION_PROJECTS,
  LOCK_PROJECT_SCENARIOS,
  LOCK_PROJECT_TO_DISCARD,
  LOCK_SCENARIO,
  MARK_DISCARDED,
} from './split-projects.repository.sql';

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

/** Who discarded a project, and when (a discarded project is found only by the discard itself). */
export interface Discard {
  discardedAt: Date;
  discardedBy: string;
}

/** A project as the discard sees it: discarded already, or not (`discardedAt` null). */
export type ProjectToDiscard = SplitProject & { discardedAt: Date | null; discardedBy: string | null };

export type NewSplitProject = Omit<SplitProject, 'createdAt'>;
export type NewScenarioRevision = Omit<ScenarioRevision, 'createdAt'>;
export type ScenarioRevisionSummary = Omit<ScenarioRevision, 'content'>;

/** Every query of split projects, operating scenarios and their revisions; always within one organization. */
@Injectable()
export class SplitProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertProject(manager: EntityManager, project: NewSplitProject): Promise<void> {
    await manager.query(INSERT_PROJECT, [
      project.id,
      project.organizationId,
      project.name,
      project.currency,
      project.templateVersion,
      project.createdBy,
    ]);
  }

  async findProject(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<SplitProject | null> {
    const rows: SplitProject[] = await manager.query(FIND_PROJECT, [id, organizationId]);
    return rows[0] ?? null;
  }

  /** The project, discarded or not, under the row lock activation takes, held to the transaction's end. */
  async lockToDiscard(manager: EntityManager, organizationId: string, id: string): Promise<ProjectToDiscard | null> {
    const rows: ProjectToDiscard[] = await manager.query(LOCK_PROJECT_TO_DISCARD, [id, organizationId]);
    return rows[0] ?? null;
  }

  /** Whether a rule version was made of the project (it is activated, no longer a draft). */
  async hasRuleVersion(manager: EntityManager, id: string): Promise<boolean> {
    const [row]: { activated: boolean }[] = await manager.query(HAS_RULE_VERSION, [id]);
    return row!.activated;
  }

  async markDiscarded(manager: EntityManager, id: string, discardedBy: string): Promise<Discard> {
    // For UPDATE, TypeORM's query() answers [rows, affectedCount].
    const [rows]: [Discard[], number] = await manager.query(MARK_DISCARDED, [id, discardedBy]);
    return rows[0]!;
  }

  /** Holds the project (not discarded) against a discard until the transaction ends; false when there is none to hold. */
  async holdToDraft(manager: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(HOLD_PROJECT_TO_DRAFT, [id, organizationId]);
    return rows.length > 0;
  }

  /** A page of the organization's projects in id order. */
  async listProjects(organizationId: string, afterId: string | undefined, limit: number): Promise<SplitProject[]> {
    return this.dataSource.query(LIST_PROJECTS, [organizationId, afterId ?? null, limit]);
  }

  /** The organization's drafts (projects never activated), counted up to `atMost`, under a lock held to the transaction's end. */
  async lockAndCountDrafts(manager: EntityManager, organizationId: string, atMost: number): Promise<number> {
    await manager.query(LOCK_ORGANIZATION_PROJECTS, [organizationId]);
    const [row]: { n: number }[] = await manager.query(COUNT_DRAFT_PROJECTS, [organizationId, atMost]);
    return row!.n;
  }

  /** The project's scenarios, counted up to `atMost`, under a lock held to the transaction's end. */
  async lockAndCountScenarios(manager: EntityManager, projectId: string, atMost: number): Promise<number> {
    await manager.query(LOCK_PROJECT_SCENARIOS, [projectId]);
    const [row]: { n: number }[] = await manager.query(COUNT_SCENARIOS, [projectId, atMost]);
    return row!.n;
  }

  async insertScenario(
    manager: EntityManager,
    scenario: Pick<OperatingScenario, 'id' | 'projectId' | 'name' | 'branchedFrom'> & { createdBy: string },
  ): Promise<void> {
    await manager.query(INSERT_SCENARIO, [
      scenario.id,
      scenario.projectId,
      scenario.name,
      scenario.branchedFrom?.scenarioId ?? null,
      scenario.branchedFrom?.revision ?? null,
      scenario.createdBy,
    ]);
  }

  async insertRevision(manager: EntityManager, revision: NewScenarioRevision): Promise<ScenarioRevision> {
    const rows: ScenarioRevision[] = await manager.query(INSERT_REVISION, [
      revision.scenarioId,
      revision.revision,
      JSON.stringify(revision.content),
      revision.rulesDigest,
      revision.createdBy,
    ]);
    return rows[0]!;
  }

  /** A scenario of a project of the organization, or null (another organization's is not found either). */
  async findScenario(
    organizationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OperatingScenario | null> {
    const rows: OperatingScenario[] = await manager.query(FIND_SCENARIO, [id, organizationId]);
    return rows[0] ?? null;
  }

  /** Locks the scenario row, so revisions are numbered one after another. */
  async lockScenario(manager: EntityManager, organizationId: string, id: string): Promise<OperatingScenario | null> {
    const locked: unknown[] = await manager.query(LOCK_SCENARIO, [id, organizationId]);
    return locked.length > 0 ? this.findScenario(organizationId, id, manager) : null;
  }

  async listScenarios(projectId: string, afterId: string | undefined, limit: number): Promise<OperatingScenario[]> {
    return this.dataSource.query(LIST_SCENARIOS, [projectId, afterId ?? null, limit]);
  }

  async findRevision(
    scenarioId: string,
    revision: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ScenarioRevision | null> {
    const rows: ScenarioRevision[] = await manager.query(FIND_REVISION, [scenarioId, revision]);
    return rows[0] ?? null;
  }

  /**
   * The current revision of each scenario, in one query: one backward primary-key probe per scenario,
   * so the cost follows the page, not the length of the scenarios' histories (issue 21).
   */
  async findCurrentRevisions(scenarioIds: string[]): Promise<ScenarioRevision[]> {
    if (scenarioIds.length === 0) return [];
    return this.dataSource.query(FIND_CURRENT_REVISIONS, [scenarioIds]);
  }

  /** Up to `limit` revisions after `afterRevision`, oldest first: a forward probe of the primary key. */
  async listRevisions(scenarioId: string, afterRevision: number, limit: number): Promise<ScenarioRevisionSummary[]> {
    return this.dataSource.query(LIST_REVISIONS, [scenarioId, afterRevision, limit]);
  }
}
