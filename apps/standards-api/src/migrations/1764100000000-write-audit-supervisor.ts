import type { MigrationInterface, QueryRunner } from 'typeorm';

/** AGT-1: a write by an agent names the person accountable for it, and only an agent's write names one. */
export class WriteAuditSupervisor1764100000000 implements MigrationInterface {
  name = 'WriteAuditSupervisor1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE write_audit ADD COLUMN supervisor_id text,
         ADD CONSTRAINT write_audit_agent_supervised CHECK ((subject_kind = 'agent') = (supervisor_id IS NOT NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE write_audit DROP COLUMN supervisor_id');
  }
}
