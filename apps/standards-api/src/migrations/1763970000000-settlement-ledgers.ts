import type { MigrationInterface, QueryRunner } from 'typeorm';

// The split engine's decimal strings: no exponent, no grouping, and zero has no sign.
const decimal = (column: string) => `CHECK (${column} ~ '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$' AND ${column} !~ '^-0(\\.0+)?$')`;
const CURRENCY = `'^[A-Z]{3}$'`;

/** Settlement runs and equity ledger entries: posted facts, so the database refuses to change or remove them. */
export class SettlementLedgers1763970000000 implements MigrationInterface {
  name = 'SettlementLedgers1763970000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE settlement_run (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL,
        project_id uuid NOT NULL REFERENCES split_project (id),
        period_id text NOT NULL,
        rule_version integer NOT NULL CHECK (rule_version >= 1),
        gross text NOT NULL ${decimal('gross')},
        costs text NOT NULL ${decimal('costs')},
        distributable text NOT NULL ${decimal('distributable')},
        currency text NOT NULL CHECK (currency ~ ${CURRENCY}),
        allocations jsonb NOT NULL CHECK (jsonb_typeof(allocations) = 'array'),
        digest text NOT NULL,
        reverses_run_id uuid REFERENCES settlement_run (id),
        posted_by text NOT NULL,
        posted_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX settlement_run_organization_project ON settlement_run (organization_id, project_id, id)`,
      `CREATE TABLE equity_ledger_entry (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL,
        legal_entity_id text NOT NULL,
        settlement_run_id uuid NOT NULL REFERENCES settlement_run (id),
        participant_id text NOT NULL,
        currency text NOT NULL CHECK (currency ~ ${CURRENCY}),
        amount text NOT NULL ${decimal('amount')},
        posted_at timestamptz NOT NULL DEFAULT now()
      )`,
      // A ledger is read oldest first, one legal entity of one organization at a time.
      `CREATE INDEX equity_ledger_entry_ledger ON equity_ledger_entry (organization_id, legal_entity_id, posted_at, id)`,
      `CREATE INDEX equity_ledger_entry_run ON equity_ledger_entry (settlement_run_id)`,
    ];
    for (const table of ['settlement_run', 'equity_ledger_entry']) {
      statements.push(
        `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_change()`,
        `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION refuse_change()`,
      );
    }
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['equity_ledger_entry', 'settlement_run']) await queryRunner.query(`DROP TABLE ${table}`);
  }
}
