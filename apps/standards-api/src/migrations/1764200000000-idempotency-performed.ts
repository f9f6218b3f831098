import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a keyed request's write committed: set in the write's own transaction, so a claim whose answer
 * was never stored (the process killed, the connection lost after COMMIT) is known to be done and is
 * never taken over or released to run the write again.
 */
export class IdempotencyPerformed1764200000000 implements MigrationInterface {
  name = 'IdempotencyPerformed1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record ADD COLUMN performed_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record DROP COLUMN performed_at');
  }
}
