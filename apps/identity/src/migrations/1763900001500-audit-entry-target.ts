import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log read by target (`GET /v1/audit?target=`): a grant's issuance, refreshes and revocation, a client's
 * registration and deletion. The bounded refresh trail (one `tokens.refresh` per grant per window) looks here too.
 */
export class AuditEntryTarget1763900001500 implements MigrationInterface {
  name = 'AuditEntryTarget1763900001500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX audit_entry_target ON audit_entry (target, id) WHERE target IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX audit_entry_target');
  }
}
