import type { MigrationInterface, QueryRunner } from 'typeorm';

// The split engine's decimal strings (as the ledger's amounts): no exponent, no grouping, and zero has no sign.
const DECIMAL = `'^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$'`;

// Computed by the database as an entry is inserted, whoever inserts it: under the organization's
// ledger lock (the one postings take, SettlementsRepository's LEDGER_LOCK, re-entrant), from the
// latest entry of the same ledger and currency. An entry posted before that latest one is refused:
// it would make every later stored balance wrong.
const RUNNING_BALANCE = `CREATE FUNCTION equity_ledger_running_balance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  latest record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('settlement-ledgers:' || NEW.organization_id, 0));
  SELECT posted_at, id, balance INTO latest FROM equity_ledger_entry
   WHERE organization_id = NEW.organization_id AND legal_entity_id = NEW.legal_entity_id AND currency = NEW.currency
   ORDER BY posted_at DESC, id DESC LIMIT 1;
  IF FOUND AND (latest.posted_at, latest.id) > (NEW.posted_at, NEW.id) THEN
    RAISE EXCEPTION 'equity ledger entries are appended in posting order: % is before the latest entry % of its ledger', NEW.id, latest.id
      USING ERRCODE = 'check_violation';
  END IF;
  NEW.balance := (coalesce(latest.balance::numeric, 0) + NEW.amount::numeric)::text;
  RETURN NEW;
END
$$`;

/**
 * Each equity ledger entry keeps its currency's running balance in its ledger (issue 21): the sum of
 * every entry of the same organization, legal entity and currency up to and including it, in
 * (posted_at, id) order. A page's opening balances are then one index lookup per currency instead
 * of a sum over every earlier entry. Existing entries are back-filled here; a trigger writes it
 * as each entry is inserted, in the inserting statement. Also the indexes that keep a posting's own
 * look-ups (its posting time, its period's standing run) from growing with the data.
 */
export class LedgerRunningBalance1764321000000 implements MigrationInterface {
  name = 'LedgerRunningBalance1764321000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE equity_ledger_entry ADD COLUMN balance text`,
      // Entries are append-only; the back-fill is the one change they ever get, inside this migration's transaction.
      `ALTER TABLE equity_ledger_entry DISABLE TRIGGER equity_ledger_entry_append_only`,
      `UPDATE equity_ledger_entry e SET balance = s.balance
         FROM (SELECT id, (sum(amount::numeric) OVER (PARTITION BY organization_id, legal_entity_id, currency
                 ORDER BY posted_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))::text AS balance
               FROM equity_ledger_entry) s
        WHERE e.id = s.id`,
      `ALTER TABLE equity_ledger_entry ENABLE TRIGGER equity_ledger_entry_append_only`,
      `ALTER TABLE equity_ledger_entry ALTER COLUMN balance SET NOT NULL,
         ADD CONSTRAINT equity_ledger_entry_balance_decimal CHECK (balance ~ ${DECIMAL} AND balance !~ '^-0(\\.0+)?$')`,
      // A currency's balance at a point of the ledger: the latest entry of that currency at or before it.
      `CREATE INDEX equity_ledger_entry_currency_balance ON equity_ledger_entry (organization_id, legal_entity_id, currency, posted_at, id)
         INCLUDE (balance)`,
      RUNNING_BALANCE,
      `CREATE TRIGGER equity_ledger_entry_running_balance BEFORE INSERT ON equity_ledger_entry FOR EACH ROW
         EXECUTE FUNCTION equity_ledger_running_balance()`,
      // A posting's time follows the organization's latest entry: max(posted_at) without reading every entry.
      `CREATE INDEX equity_ledger_entry_posting_order ON equity_ledger_entry (organization_id, posted_at)`,
      // A posting's standing run of its period: without it, the plan walks all of settlement_run_of_period,
      // whose leading column is the run's id (seen in settlements.repository.explain.md at 100 000 runs).
      `CREATE INDEX settlement_run_period ON settlement_run (project_id, period_id)`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      'DROP INDEX settlement_run_period',
      'DROP TRIGGER equity_ledger_entry_running_balance ON equity_ledger_entry',
      'DROP FUNCTION equity_ledger_running_balance()',
      'DROP INDEX equity_ledger_entry_posting_order',
      'DROP INDEX equity_ledger_entry_currency_balance',
      'ALTER TABLE equity_ledger_entry DROP CONSTRAINT equity_ledger_entry_balance_decimal, DROP COLUMN balance',
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
