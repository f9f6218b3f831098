import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Posting settlement runs: what a run was computed from, "a period is settled once" and linear
 * corrections as constraints, reversal entries in the ledgers, and one confirmation-challenge table
 * for every two-step formal write (activation's own table is replaced; its tokens live 10 minutes).
 */
export class SettlementPosting1764000000000 implements MigrationInterface {
  name = 'SettlementPosting1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      // Runs were never posted before this migration (there was no write path), so the columns can be required.
      `ALTER TABLE settlement_run
        ADD COLUMN period_end timestamptz NOT NULL,
        ADD COLUMN rules_digest text NOT NULL,
        ADD COLUMN tiers jsonb NOT NULL CHECK (jsonb_typeof(tiers) = 'array'),
        ADD CONSTRAINT settlement_run_of_period UNIQUE (id, project_id, period_id),
        ADD CONSTRAINT settlement_run_corrects_same_period
          FOREIGN KEY (reverses_run_id, project_id, period_id) REFERENCES settlement_run (id, project_id, period_id),
        ADD CONSTRAINT settlement_run_corrected_once UNIQUE (reverses_run_id)`,
      // A period has one first run; every later run corrects the one before (corrected once), so the
      // runs of a period form one chain and concurrent postings for a period have exactly one winner.
      `CREATE UNIQUE INDEX settlement_run_period_once ON settlement_run (project_id, period_id) WHERE reverses_run_id IS NULL`,
      `CREATE INDEX settlement_run_posting_order ON settlement_run (organization_id, posted_at)`,
      `DROP INDEX settlement_run_organization_project`,
      `CREATE INDEX settlement_run_organization_project ON settlement_run (organization_id, project_id, posted_at, id)`,
      `ALTER TABLE equity_ledger_entry
        ADD COLUMN kind text NOT NULL DEFAULT 'allocation' CHECK (kind IN ('allocation', 'reversal')),
        ADD COLUMN reverses_entry_id uuid UNIQUE REFERENCES equity_ledger_entry (id),
        ADD CONSTRAINT equity_ledger_entry_reversal_names_entry CHECK ((kind = 'reversal') = (reverses_entry_id IS NOT NULL))`,
      `DROP TABLE activation_challenge`,
      // Only the token's sha256 is kept; `binding` is what the token confirms; used_at is set once.
      `CREATE TABLE confirmation_challenge (
        token_sha256 text PRIMARY KEY CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
        action text NOT NULL,
        project_id uuid NOT NULL REFERENCES split_project (id),
        subject text NOT NULL,
        binding jsonb NOT NULL CHECK (jsonb_typeof(binding) = 'object'),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      `CREATE INDEX confirmation_challenge_project ON confirmation_challenge (project_id)`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP TABLE confirmation_challenge',
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
      'CREATE INDEX activation_challenge_project ON activation_challenge (project_id)',
      `ALTER TABLE equity_ledger_entry DROP CONSTRAINT equity_ledger_entry_reversal_names_entry, DROP COLUMN reverses_entry_id, DROP COLUMN kind`,
      'DROP INDEX settlement_run_organization_project',
      'CREATE INDEX settlement_run_organization_project ON settlement_run (organization_id, project_id, id)',
      'DROP INDEX settlement_run_posting_order',
      'DROP INDEX settlement_run_period_once',
      `ALTER TABLE settlement_run DROP CONSTRAINT settlement_run_corrected_once, DROP CONSTRAINT settlement_run_corrects_same_period,
        DROP CONSTRAINT settlement_run_of_period, DROP COLUMN tiers, DROP COLUMN rules_digest, DROP COLUMN period_end`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
