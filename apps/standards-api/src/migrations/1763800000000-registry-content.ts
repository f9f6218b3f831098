import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RegistryContent1763800000000 implements MigrationInterface {
  name = 'RegistryContent1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE content_release (
        sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        pack_version text NOT NULL,
        format_version integer NOT NULL,
        publisher text NOT NULL,
        digest text NOT NULL CHECK (digest ~ '^sha256:[0-9a-f]{64}$'),
        imported_at timestamptz NOT NULL DEFAULT now(),
        meta jsonb NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION refuse_content_release_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'content_release is append-only';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER content_release_append_only BEFORE UPDATE OR DELETE ON content_release
      FOR EACH ROW EXECUTE FUNCTION refuse_content_release_change()`);
    await queryRunner.query(`
      CREATE TABLE standard_block_version (
        section_id text NOT NULL,
        version text NOT NULL,
        status text NOT NULL CHECK (status IN ('current', 'superseded')),
        effective_from date NOT NULL,
        doc jsonb NOT NULL,
        PRIMARY KEY (section_id, version)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX standard_block_one_current ON standard_block_version (section_id) WHERE status = 'current'`,
    );
    await queryRunner.query(`CREATE TABLE term (term_id text PRIMARY KEY, doc jsonb NOT NULL)`);
    await queryRunner.query(`CREATE TABLE task_spec (task_code text PRIMARY KEY, doc jsonb NOT NULL)`);
    await queryRunner.query(`CREATE TABLE registry_role (role text PRIMARY KEY, doc jsonb NOT NULL)`);
    await queryRunner.query(`
      CREATE TABLE policy_version (
        policy_id text NOT NULL,
        version text NOT NULL,
        effective_from date NOT NULL,
        effective_to date,
        doc jsonb NOT NULL,
        PRIMARY KEY (policy_id, version),
        CHECK (effective_to IS NULL OR effective_to >= effective_from)
      )`);
    await queryRunner.query(`CREATE TABLE brand_snapshot (snapshot_id text PRIMARY KEY, doc jsonb NOT NULL)`);
    await queryRunner.query(`
      CREATE TABLE split_template (
        version text PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('current', 'superseded')),
        doc jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'split_template',
      'brand_snapshot',
      'policy_version',
      'registry_role',
      'task_spec',
      'term',
      'standard_block_version',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query(`DROP TABLE content_release`);
    await queryRunner.query(`DROP FUNCTION refuse_content_release_change()`);
  }
}
