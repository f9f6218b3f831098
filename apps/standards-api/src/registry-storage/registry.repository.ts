import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ContentPack } from '@stdreg/registry-content';
import {
  BrandSnapshotEntity,
  ContentReleaseEntity,
  PolicyVersionEntity,
  RoleEntity,
  SplitTemplateEntity,
  StandardBlockVersionEntity,
  TaskSpecEntity,
  TermEntity,
} from './registry.entity';

/** The registry content as stored: the current release and every record of it. */
export interface StoredRegistry {
  release: ContentReleaseEntity;
  pack: ContentPack;
}

const CONTENT_TABLES = [
  'standard_block_version',
  'term',
  'task_spec',
  'registry_role',
  'policy_version',
  'brand_snapshot',
  'split_template',
];
// Serializes imports across processes; any number of replicas may try at once.
const IMPORT_LOCK_KEY = 7_341_001;

/** Every query of the registry content. */
@Injectable()
export class RegistryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async currentRelease(): Promise<ContentReleaseEntity | null> {
    return this.dataSource.getRepository(ContentReleaseEntity).findOne({ where: {}, order: { sequence: 'DESC' } });
  }

  async currentReleaseSequence(): Promise<string | null> {
    const rows: { sequence: string }[] = await this.dataSource.query(
      'SELECT sequence::text AS sequence FROM content_release ORDER BY sequence DESC LIMIT 1',
    );
    return rows[0]?.sequence ?? null;
  }

  /** Reads the current release and its content in one snapshot transaction. */
  async loadCurrent(): Promise<StoredRegistry | null> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const release = await manager.getRepository(ContentReleaseEntity).findOne({ where: {}, order: { sequence: 'DESC' } });
      if (!release) return null;
      // One connection serves the whole transaction, so the reads run one after another.
      const standards = await manager.getRepository(StandardBlockVersionEntity).find({ order: { sectionId: 'ASC', version: 'ASC' } });
      const terms = await manager.getRepository(TermEntity).find({ order: { termId: 'ASC' } });
      const tasks = await manager.getRepository(TaskSpecEntity).find({ order: { taskCode: 'ASC' } });
      const roles = await manager.getRepository(RoleEntity).find({ order: { role: 'ASC' } });
      const policyVersions = await manager.getRepository(PolicyVersionEntity).find({ order: { policyId: 'ASC', effectiveFrom: 'ASC' } });
      const brands = await manager.getRepository(BrandSnapshotEntity).find();
      const templates = await manager.getRepository(SplitTemplateEntity).find({ order: { version: 'ASC' } });
      const policies = new Map<string, ContentPack['policies'][number]>();
      for (const row of policyVersions) {
        const policy = policies.get(row.policyId) ?? { policyId: row.policyId, versions: [] };
        policy.versions.push(row.doc);
        policies.set(row.policyId, policy);
      }
      const brand = brands[0];
      if (!brand) throw new Error('registry content is incomplete: no brand snapshot');
      return {
        release,
        pack: {
          pack: release.meta,
          standards: standards.map((row) => row.doc),
          terms: terms.map((row) => row.doc),
          tasks: tasks.map((row) => row.doc),
          roles: roles.map((row) => row.doc),
          policies: [...policies.values()],
          brand: brand.doc,
          splitTemplates: templates.map((row) => row.doc),
        },
      };
    });
  }

  /**
   * Replaces the registry content with a validated pack and records the release, all in one
   * transaction. Returns null, changing nothing, when that digest is already current.
   */
  async replaceContent(pack: ContentPack, digest: string): Promise<ContentReleaseEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
      const current = await manager.getRepository(ContentReleaseEntity).findOne({ where: {}, order: { sequence: 'DESC' } });
      if (current?.digest === digest) return null;
      await manager.query(`TRUNCATE ${CONTENT_TABLES.join(', ')}`);
      await this.insertContent(manager, pack);
      return manager.getRepository(ContentReleaseEntity).save({
        packVersion: pack.pack.packVersion,
        formatVersion: pack.pack.formatVersion,
        publisher: pack.pack.publisher,
        digest,
        importedAt: new Date(),
        meta: pack.pack,
      });
    });
  }

  /** Each content table's rows from its records, passed as one JSON array: one statement and one parameter however large the pack. */
  private async insertContent(manager: EntityManager, pack: ContentPack): Promise<void> {
    await manager.query(
      `INSERT INTO standard_block_version (section_id, version, status, effective_from, doc)
       SELECT d->>'sectionId', d->>'version', d->>'status', (d->>'effectiveFrom')::date, d FROM jsonb_array_elements($1::jsonb) d`,
      [JSON.stringify(pack.standards)],
    );
    await manager.query(`INSERT INTO term (term_id, doc) SELECT d->>'termId', d FROM jsonb_array_elements($1::jsonb) d`, [
      JSON.stringify(pack.terms),
    ]);
    await manager.query(`INSERT INTO task_spec (task_code, doc) SELECT d->>'taskCode', d FROM jsonb_array_elements($1::jsonb) d`, [
      JSON.stringify(pack.tasks),
    ]);
    await manager.query(`INSERT INTO registry_role (role, doc) SELECT d->>'role', d FROM jsonb_array_elements($1::jsonb) d`, [
      JSON.stringify(pack.roles),
    ]);
    await manager.query(
      `INSERT INTO policy_version (policy_id, version, effective_from, effective_to, doc)
       SELECT p->>'policyId', v->>'version', (v->>'effectiveFrom')::date, (v->>'effectiveTo')::date, v
         FROM jsonb_array_elements($1::jsonb) p CROSS JOIN LATERAL jsonb_array_elements(p->'versions') v`,
      [JSON.stringify(pack.policies)],
    );
    await manager.getRepository(BrandSnapshotEntity).insert({ snapshotId: pack.brand.snapshotId, doc: pack.brand });
    await manager.query(
      `INSERT INTO split_template (version, status, doc) SELECT d->>'version', d->>'status', d FROM jsonb_array_elements($1::jsonb) d`,
      [JSON.stringify(pack.splitTemplates)],
    );
  }
}
