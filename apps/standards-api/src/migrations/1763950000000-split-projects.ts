import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SplitProjects1763950000000 implements MigrationInterface {
  name = 'SplitProjects1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
      END $$`,
      `CREATE TABLE split_project (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL,
        name text NOT NULL,
        currency text NOT NULL,
        template_version text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX split_project_organization ON split_project (organization_id, id)`,
      `CREATE TABLE operating_scenario (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES split_project (id),
        name text NOT NULL,
        branched_from_scenario_id uuid REFERENCES operating_scenario (id),
        branched_from_revision integer,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((branched_from_scenario_id IS NULL) = (branched_from_revision IS NULL))
      )`,
      `CREATE INDEX operating_scenario_project ON operating_scenario (project_id, id)`,
      // Every change to a scenario is a new revision; the database refuses to change or remove one.
      `CREATE TABLE scenario_revision (
        scenario_id uuid NOT NULL REFERENCES operating_scenario (id),
        revision integer NOT NULL CHECK (revision >= 1),
        content jsonb NOT NULL,
        rules_digest text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scenario_id, revision)
      )`,
      `CREATE TRIGGER scenario_revision_append_only BEFORE UPDATE OR DELETE ON scenario_revision
        FOR EACH ROW EXECUTE FUNCTION refuse_change()`,
      `CREATE TRIGGER scenario_revision_no_truncate BEFORE TRUNCATE ON scenario_revision
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()`,
      `CREATE TABLE write_audit (
        id uuid PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        organization_id uuid NOT NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        action text NOT NULL,
        target text NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}',
        request_id text
      )`,
      `CREATE TRIGGER write_audit_append_only BEFORE UPDATE OR DELETE ON write_audit
        FOR EACH ROW EXECUTE FUNCTION refuse_change()`,
      `CREATE TRIGGER write_audit_no_truncate BEFORE TRUNCATE ON write_audit
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['write_audit', 'scenario_revision', 'operating_scenario', 'split_project']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query('DROP FUNCTION refuse_change()');
  }
}
