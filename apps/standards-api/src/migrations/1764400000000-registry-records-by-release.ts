import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each content table and its key within a release. */
const CONTENT_KEYS: [table: string, key: string][] = [
  ['standard_block_version', 'section_id, version'],
  ['term', 'term_id'],
  ['task_spec', 'task_code'],
  ['registry_role', 'role'],
  ['policy_version', 'policy_id, version'],
  ['brand_snapshot', 'snapshot_id'],
  ['split_template', 'version'],
];

/**
 * The content tables hold the records of a release by its sequence, so that standards-api can serve records
 * from the database: a replica still serving the previous release finds its records while a new one is imported
 * (the import keeps the current and the previous release, see docs/decisions.md, issue 30).
 */
export class RegistryRecordsByRelease1764400000000 implements MigrationInterface {
  name = 'RegistryRecordsByRelease1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, key] of CONTENT_KEYS) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN release bigint REFERENCES content_release (sequence)`);
      await queryRunner.query(`UPDATE ${table} SET release = (SELECT max(sequence) FROM content_release)`);
      await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN release SET NOT NULL`);
      await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
      await queryRunner.query(`ALTER TABLE ${table} ADD PRIMARY KEY (release, ${key})`);
    }
    // The keys read in batches (standards-api's load) compare byte by byte, as JavaScript's `<` orders these ASCII
    // ids: the primary key then serves each batch as a range, in list order.
    await queryRunner.query(`ALTER TABLE term ALTER COLUMN term_id TYPE text COLLATE "C"`);
    await queryRunner.query(`ALTER TABLE task_spec ALTER COLUMN task_code TYPE text COLLATE "C"`);
    await queryRunner.query(`DROP INDEX standard_block_one_current`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX standard_block_one_current ON standard_block_version (release, section_id) WHERE status = 'current'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE term ALTER COLUMN term_id TYPE text COLLATE "default"`);
    await queryRunner.query(`ALTER TABLE task_spec ALTER COLUMN task_code TYPE text COLLATE "default"`);
    for (const [table, key] of CONTENT_KEYS) {
      await queryRunner.query(`DELETE FROM ${table} WHERE release <> (SELECT max(sequence) FROM content_release)`);
      await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`);
      await queryRunner.query(`ALTER TABLE ${table} ADD PRIMARY KEY (${key})`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN release`);
    }
    await queryRunner.query(
      `CREATE UNIQUE INDEX standard_block_one_current ON standard_block_version (section_id) WHERE status = 'current'`,
    );
  }
}
