import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A kept answer is replayed as it was sent: `json` keeps the text it is given, where `jsonb` reordered an object's
 * members (shortest name first), so a replay's body differed byte for byte from the first answer's. Records kept
 * before this replay in `jsonb`'s order, as they did.
 */
export class IdempotencyAnswerAsSent1764800000000 implements MigrationInterface {
  name = 'IdempotencyAnswerAsSent1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record ALTER COLUMN body TYPE json USING body::json');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_record ALTER COLUMN body TYPE jsonb USING body::jsonb');
  }
}
