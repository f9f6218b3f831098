import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which request holds a key's claim: a claim taken over from a request that looked abandoned (but was only slow) is
 * another claim, so the slow request can no longer mark it performed, complete it or release it, and its write rolls
 * back. Records written before this have none; no running request holds them.
 */
export class IdempotencyClaim1764600000000 implements MigrationInterface {
  name = 'IdempotencyClaim1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record ADD COLUMN claim_id uuid');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record DROP COLUMN claim_id');
  }
}
