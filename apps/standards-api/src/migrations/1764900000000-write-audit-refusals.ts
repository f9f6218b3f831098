import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A formal write standards-api refuses itself after identity allowed it (an agent or a key where only a person may:
 * `authorization.human_required`) is recorded as `denied`; every earlier entry is a write that was made.
 */
export class WriteAuditRefusals1764900000000 implements MigrationInterface {
  name = 'WriteAuditRefusals1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE write_audit ADD COLUMN outcome text NOT NULL DEFAULT 'success',
         ADD CONSTRAINT write_audit_outcome CHECK (outcome IN ('success', 'denied'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE write_audit DROP COLUMN outcome');
  }
}
