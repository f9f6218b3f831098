import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A formal write standards-api refuses itself after identity allowed it (an agent or a key where only a person may:
 * `authorization.human_required`) is recorded as `denied`; every earlier entry is a write that was made.
 *
 * The release before this one reads every entry as a write, so undoing this moves the refusals aside (to
 * `write_audit_undone_refusal`) instead of leaving them to read as writes, and doing it again puts them back.
 */
export class WriteAuditRefusals1764900000000 implements MigrationInterface {
  name = 'WriteAuditRefusals1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE write_audit ADD COLUMN outcome text NOT NULL DEFAULT 'success',
         ADD CONSTRAINT write_audit_outcome CHECK (outcome IN ('success', 'denied'))`,
    );
    const [aside] = (await queryRunner.query(`SELECT to_regclass('write_audit_undone_refusal') IS NOT NULL AS "exists"`)) as {
      exists: boolean;
    }[];
    if (!aside?.exists) return;
    const columns = (
      (await queryRunner.query(
        `SELECT quote_ident(column_name) AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'write_audit_undone_refusal' ORDER BY ordinal_position`,
      )) as { name: string }[]
    )
      .map((column) => column.name)
      .join(', ');
    await queryRunner.query(`INSERT INTO write_audit (${columns}) SELECT ${columns} FROM write_audit_undone_refusal`);
    await queryRunner.query('DROP TABLE write_audit_undone_refusal');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE write_audit_undone_refusal AS SELECT * FROM write_audit WHERE outcome = 'denied'`);
    await queryRunner.query('ALTER TABLE write_audit DISABLE TRIGGER write_audit_append_only');
    await queryRunner.query(`DELETE FROM write_audit WHERE outcome = 'denied'`);
    await queryRunner.query('ALTER TABLE write_audit ENABLE TRIGGER write_audit_append_only');
    await queryRunner.query('ALTER TABLE write_audit DROP COLUMN outcome');
  }
}
