import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RuleVersions1763960000000 implements MigrationInterface {
  name = 'RuleVersions1763960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      // A project is activated when its version 1 exists; the primary key keeps numbers unique.
      `CREATE TABLE rule_version (
        project_id uuid NOT NULL REFERENCES split_project (id),
        version integer NOT NULL CHECK (version >= 1),
        scenario_id uuid NOT NULL,
        revision integer NOT NULL,
        rules_digest text NOT NULL,
        rules jsonb NOT NULL,
        effective_from timestamptz NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, version),
        FOREIGN KEY (scenario_id, revision) REFERENCES scenario_revision (scenario_id, revision)
      )`,
      `CREATE TRIGGER rule_version_append_only BEFORE UPDATE OR DELETE ON rule_version
        FOR EACH ROW EXECUTE FUNCTION refuse_change()`,
      `CREATE TRIGGER rule_version_no_truncate BEFORE TRUNCATE ON rule_version
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()`,
      // Only the token's sha256 is kept; used_at is set once, when the token is spent.
      `CREATE TABLE activation_challenge (
        token_sha256 text PRIMARY KEY CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
        project_id uuid NOT NULL REFERENCES split_project (id),
        subject text NOT NULL,
        scenario_id uuid NOT NULL,
        revision integer NOT NULL,
        rules_digest text NOT NULL,
        effective_from timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        FOREIGN KEY (scenario_id, revision) REFERENCES scenario_revision (scenario_id, revision)
      )`,
      `CREATE INDEX activation_challenge_project ON activation_challenge (project_id)`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE activation_challenge');
    await queryRunner.query('DROP TABLE rule_version');
  }
}
