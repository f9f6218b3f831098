import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A release's search index, built once (by the import, or by the first replica to load a release without one) and
 * loaded by every replica instead of rebuilt: a header row per release and format version, its bytes in chunks of a
 * few MB (docs/decisions.md, issue 30, the stored index). The chunks are stored as they are (binary typed arrays,
 * not worth compressing on every write and read).
 */
export class SearchIndexSnapshot1764500000000 implements MigrationInterface {
  name = 'SearchIndexSnapshot1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE search_index_snapshot (
        release bigint NOT NULL REFERENCES content_release (sequence),
        format_version integer NOT NULL,
        byte_length bigint NOT NULL CHECK (byte_length >= 0),
        chunk_count integer NOT NULL CHECK (chunk_count >= 0),
        sha256 bytea NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (release, format_version)
      )`);
    await queryRunner.query(`
      CREATE TABLE search_index_snapshot_chunk (
        release bigint NOT NULL,
        format_version integer NOT NULL,
        chunk integer NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (release, format_version, chunk),
        FOREIGN KEY (release, format_version) REFERENCES search_index_snapshot (release, format_version) ON DELETE CASCADE
      )`);
    await queryRunner.query(`ALTER TABLE search_index_snapshot_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE search_index_snapshot_chunk`);
    await queryRunner.query(`DROP TABLE search_index_snapshot`);
  }
}
