import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { databaseNow } from '@stdreg/server-kit/database';
import type { ScenarioContent } from '@stdreg/split-engine';
import { FIND_VERSION, INSERT_VERSION, LATEST_VERSION, LIST_VERSIONS, LOCK_PROJECT } from './rule-versions.repository.sql';

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

/** Every query of rule versions. */
@Injectable()
export class RuleVersionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the project row: activations, version numbering and discards of one project happen one at a time; false if discarded. */
  async lockProject(manager: EntityManager, organizationId: string, projectId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(LOCK_PROJECT, [projectId, organizationId]);
    return rows.length > 0;
  }

  /** The database's clock: a new version starts after it, whichever replica numbers it. */
  async now(manager: EntityManager): Promise<Date> {
    return databaseNow(manager);
  }

  async latest(
    projectId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Pick<RuleVersion, 'version' | 'effectiveFrom'> | null> {
    const rows: Pick<RuleVersion, 'version' | 'effectiveFrom'>[] = await manager.query(LATEST_VERSION, [projectId]);
    return rows[0] ?? null;
  }

  async insert(manager: EntityManager, version: NewRuleVersion): Promise<RuleVersion> {
    const rows: RuleVersion[] = await manager.query(INSERT_VERSION, [
      version.projectId,
      version.version,
      version.scenarioId,
      version.revision,
      version.rulesDigest,
      JSON.stringify(version.rules),
      version.effectiveFrom,
      version.createdBy,
    ]);
    return rows[0]!;
  }

  async find(projectId: string, version: number): Promise<RuleVersion | null> {
    const rows: RuleVersion[] = await this.dataSource.query(FIND_VERSION, [projectId, version]);
    return rows[0] ?? null;
  }

  async list(projectId: string, afterVersion: number, limit: number): Promise<RuleVersion[]> {
    return this.dataSource.query(LIST_VERSIONS, [projectId, afterVersion, limit]);
  }
}
