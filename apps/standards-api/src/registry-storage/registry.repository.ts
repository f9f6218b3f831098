import { Injectable } from '@nestjs/common';
import { maintenanceTransaction, preparedQuery } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';
import type {
  BrandSnapshot,
  ContentPack,
  PolicyVersion,
  Role,
  SplitTemplate,
  StandardBlockVersion,
  TaskSpec,
  Term,
} from '@stdreg/registry-content';
import { BrandSnapshotEntity, ContentReleaseEntity } from './registry.entity';

/** A standards block version's key and status, without its content. */
export interface BlockVersionKey {
  sectionId: string;
  version: string;
  status: 'current' | 'superseded';
}

/** A policy version's key and dates (as the pack gives them), without its content. */
export interface PolicyVersionKey {
  policyId: string;
  version: string;
  effectiveFrom: string;
  effectiveTo: string | null;
}

/** A stored search index of a release (search_index_snapshot), without its bytes. */
export interface StoredSearchIndexHeader {
  formatVersion: number;
  byteLength: number;
  chunkCount: number;
  sha256: Buffer;
}

/** The tables of a release's records, each keyed by release first. */
export const CONTENT_TABLES = [
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
/** Serializes the writes of one release's stored search index (the release's sequence is the second key). */
const SEARCH_INDEX_LOCK_KEY = 7_341_002;
/** The keyed tables read in batches, with their key column (collation "C", migration 1764400000000: the order of JavaScript's `<` for these ids, served by the primary key). */
const BATCHED = { term: 'term_id', task_spec: 'task_code' } as const;

/**
 * Every query of the registry content. A release's records stay in their tables, keyed by the release's
 * sequence; standards-api reads them by key when a request needs them (docs/decisions.md, issue 30).
 */
@Injectable()
export class RegistryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async currentRelease(): Promise<ContentReleaseEntity | null> {
    return this.dataSource.getRepository(ContentReleaseEntity).findOne({ where: {}, order: { sequence: 'DESC' } });
  }

  /** Ordered by the column: as text, 9 would come before 10. */
  async currentReleaseSequence(): Promise<string | null> {
    const rows: { sequence: string }[] = await this.dataSource.query(
      'SELECT sequence::text AS sequence FROM content_release ORDER BY content_release.sequence DESC LIMIT 1',
    );
    return rows[0]?.sequence ?? null;
  }

  /** Every standards block version of a release, keys only. */
  async blockVersionKeys(release: string): Promise<BlockVersionKey[]> {
    return this.dataSource.query(`SELECT section_id AS "sectionId", version, status FROM standard_block_version WHERE release = $1`, [
      release,
    ]);
  }

  /** The standards block versions of a release with these keys (those that exist), in no particular order. */
  async blockVersions(release: string, keys: readonly { sectionId: string; version: string }[]): Promise<StandardBlockVersion[]> {
    if (keys.length === 0) return [];
    const rows = await preparedQuery<{ doc: StandardBlockVersion }>(
      this.dataSource,
      'registry_block_versions_by_key',
      `SELECT b.doc FROM unnest($2::text[], $3::text[]) AS k (section_id, version)
         JOIN standard_block_version b ON b.release = $1 AND b.section_id = k.section_id AND b.version = k.version`,
      [release, keys.map((k) => k.sectionId), keys.map((k) => k.version)],
    );
    return rows.map((row) => row.doc);
  }

  /** The terms of a release with these ids (those that exist), in no particular order. */
  async terms(release: string, termIds: readonly string[]): Promise<Term[]> {
    return this.docsByKey('term', 'term_id', release, termIds);
  }

  /** The task records of a release with these codes (those that exist), in no particular order. */
  async tasks(release: string, taskCodes: readonly string[]): Promise<TaskSpec[]> {
    return this.docsByKey('task_spec', 'task_code', release, taskCodes);
  }

  /** Every version of the policies of a release with these ids, with its policy's id, in no particular order. */
  async policyVersions(release: string, policyIds: readonly string[]): Promise<{ policyId: string; doc: PolicyVersion }[]> {
    if (policyIds.length === 0) return [];
    return preparedQuery(
      this.dataSource,
      'registry_policy_versions_by_key',
      `SELECT policy_id AS "policyId", doc FROM policy_version WHERE release = $1 AND policy_id = ANY($2::text[])`,
      [release, policyIds],
    );
  }

  /** Every policy version of a release, keys and dates only. */
  async policyVersionKeys(release: string): Promise<PolicyVersionKey[]> {
    return this.dataSource.query(
      `SELECT policy_id AS "policyId", version, doc->>'effectiveFrom' AS "effectiveFrom", doc->>'effectiveTo' AS "effectiveTo"
         FROM policy_version WHERE release = $1`,
      [release],
    );
  }

  async roles(release: string): Promise<Role[]> {
    return this.docs('registry_role', release);
  }

  async brand(release: string): Promise<BrandSnapshot | undefined> {
    return (await this.docs<BrandSnapshot>('brand_snapshot', release))[0];
  }

  async splitTemplates(release: string): Promise<SplitTemplate[]> {
    return this.docs('split_template', release);
  }

  /** The terms of a release in batches of `size`, in termId order. */
  termBatches(release: string, size: number): AsyncGenerator<Term[]> {
    return this.batches('term', release, size);
  }

  /** The task records of a release in batches of `size`, in taskCode order. */
  taskBatches(release: string, size: number): AsyncGenerator<TaskSpec[]> {
    return this.batches('task_spec', release, size);
  }

  /**
   * A table's records of a release, a batch at a time by its key: at most two batches are held, the one
   * handed out and the next, read while the caller works on the first.
   */
  private async *batches<T>(table: keyof typeof BATCHED, release: string, size: number): AsyncGenerator<T[]> {
    const key = BATCHED[table];
    const read = (after: string): Promise<{ key: string; doc: T }[]> =>
      this.dataSource.query(`SELECT ${key} AS key, doc FROM ${table} WHERE release = $1 AND ${key} > $2 ORDER BY ${key} LIMIT $3`, [
        release,
        after,
        size,
      ]);
    let next: Promise<{ key: string; doc: T }[]> | null = read('');
    while (next) {
      const rows: { key: string; doc: T }[] = await next;
      next = rows.length === size ? read(rows[rows.length - 1]!.key) : null;
      if (rows.length > 0) yield rows.map((row) => row.doc);
    }
  }

  private async docsByKey<T>(table: string, key: string, release: string, keys: readonly string[]): Promise<T[]> {
    if (keys.length === 0) return [];
    const rows = await preparedQuery<{ doc: T }>(
      this.dataSource,
      `registry_${table}_by_key`,
      `SELECT doc FROM ${table} WHERE release = $1 AND ${key} = ANY($2::text[])`,
      [release, keys],
    );
    return rows.map((row) => row.doc);
  }

  private async docs<T>(table: string, release: string): Promise<T[]> {
    const rows: { doc: T }[] = await this.dataSource.query(`SELECT doc FROM ${table} WHERE release = $1`, [release]);
    return rows.map((row) => row.doc);
  }

  /** The search indexes stored for a release, one per format version, without their bytes. */
  async storedSearchIndexes(release: string): Promise<StoredSearchIndexHeader[]> {
    const rows: { formatVersion: number; byteLength: string; chunkCount: number; sha256: Buffer }[] = await this.dataSource.query(
      `SELECT format_version AS "formatVersion", byte_length AS "byteLength", chunk_count AS "chunkCount", sha256
         FROM search_index_snapshot WHERE release = $1`,
      [release],
    );
    return rows.map((row) => ({ ...row, byteLength: Number(row.byteLength) }));
  }

  /** The chunks of a stored search index numbered from `first` to `first + count - 1` that are stored, in their order. */
  async storedSearchIndexChunks(
    release: string,
    formatVersion: number,
    first: number,
    count: number,
  ): Promise<{ chunk: number; bytes: Buffer }[]> {
    return this.dataSource.query(
      `SELECT chunk, bytes FROM search_index_snapshot_chunk
         WHERE release = $1 AND format_version = $2 AND chunk >= $3 AND chunk < $3 + $4 ORDER BY chunk`,
      [release, formatVersion, first, count],
    );
  }

  /**
   * Stores a release's search index in one transaction, a chunk per statement: unless one of that format version
   * is stored already (another replica, or the import, was first), or with `replacing`, in place of it (one that
   * did not read back). Returns whether it stored it. Two writers at once wait for each other (a lock per release).
   */
  async storeSearchIndex(
    release: string,
    header: StoredSearchIndexHeader,
    chunks: Iterable<Uint8Array>,
    { replacing = false }: { replacing?: boolean } = {},
  ): Promise<boolean> {
    return maintenanceTransaction(this.dataSource, async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2::bigint::integer)', [SEARCH_INDEX_LOCK_KEY, release]);
      if (replacing) {
        await manager.query('DELETE FROM search_index_snapshot WHERE release = $1 AND format_version = $2', [
          release,
          header.formatVersion,
        ]);
      }
      const inserted: unknown[] = await manager.query(
        `INSERT INTO search_index_snapshot (release, format_version, byte_length, chunk_count, sha256) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (release, format_version) DO NOTHING RETURNING release`,
        [release, header.formatVersion, header.byteLength, header.chunkCount, header.sha256],
      );
      if (inserted.length === 0) return false;
      let chunk = 0;
      for (const bytes of chunks) {
        await manager.query(`INSERT INTO search_index_snapshot_chunk (release, format_version, chunk, bytes) VALUES ($1, $2, $3, $4)`, [
          release,
          header.formatVersion,
          chunk++,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        ]);
      }
      return true;
    });
  }

  /**
   * Records a validated pack as a new release, its records beside those of the release current until now (a
   * replica may still be serving it); those of any earlier release are deleted. All in one transaction. Returns
   * null, changing nothing, when that digest is already current.
   */
  async replaceContent(pack: ContentPack, digest: string): Promise<ContentReleaseEntity | null> {
    return maintenanceTransaction(this.dataSource, async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
      const current = await manager.getRepository(ContentReleaseEntity).findOne({ where: {}, order: { sequence: 'DESC' } });
      if (current?.digest === digest) return null;
      const release = await manager.getRepository(ContentReleaseEntity).save({
        packVersion: pack.pack.packVersion,
        formatVersion: pack.pack.formatVersion,
        publisher: pack.pack.publisher,
        digest,
        importedAt: new Date(),
        meta: pack.pack,
      });
      const kept = [release.sequence, ...(current ? [current.sequence] : [])];
      // Row by row, not TRUNCATE: a read of the records of a kept release never waits for an import.
      for (const table of CONTENT_TABLES) await manager.query(`DELETE FROM ${table} WHERE release <> ALL($1::bigint[])`, [kept]);
      await manager.query(`DELETE FROM search_index_snapshot WHERE release <> ALL($1::bigint[])`, [kept]);
      await this.insertContent(manager, pack, release.sequence);
      return release;
    });
  }

  /** Each content table's rows from its records, passed as one JSON array: one statement and one parameter however large the pack. */
  private async insertContent(manager: EntityManager, pack: ContentPack, release: string): Promise<void> {
    await manager.query(
      `INSERT INTO standard_block_version (release, section_id, version, status, effective_from, doc)
       SELECT $2, d->>'sectionId', d->>'version', d->>'status', (d->>'effectiveFrom')::date, d FROM jsonb_array_elements($1::jsonb) d`,
      [JSON.stringify(pack.standards), release],
    );
    await manager.query(`INSERT INTO term (release, term_id, doc) SELECT $2, d->>'termId', d FROM jsonb_array_elements($1::jsonb) d`, [
      JSON.stringify(pack.terms),
      release,
    ]);
    await manager.query(
      `INSERT INTO task_spec (release, task_code, doc) SELECT $2, d->>'taskCode', d FROM jsonb_array_elements($1::jsonb) d`,
      [JSON.stringify(pack.tasks), release],
    );
    await manager.query(`INSERT INTO registry_role (release, role, doc) SELECT $2, d->>'role', d FROM jsonb_array_elements($1::jsonb) d`, [
      JSON.stringify(pack.roles),
      release,
    ]);
    await manager.query(
      `INSERT INTO policy_version (release, policy_id, version, effective_from, effective_to, doc)
       SELECT $2, p->>'policyId', v->>'version', (v->>'effectiveFrom')::date, (v->>'effectiveTo')::date, v
         FROM jsonb_array_elements($1::jsonb) p CROSS JOIN LATERAL jsonb_array_elements(p->'versions') v`,
      [JSON.stringify(pack.policies), release],
    );
    await manager.getRepository(BrandSnapshotEntity).insert({ release, snapshotId: pack.brand.snapshotId, doc: pack.brand });
    await manager.query(
      `INSERT INTO split_template (release, version, status, doc) SELECT $2, d->>'version', d->>'status', d FROM jsonb_array_elements($1::jsonb) d`,
      [JSON.stringify(pack.splitTemplates), release],
    );
  }
}
