import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Idempotency1763980000000 implements MigrationInterface {
  name = 'Idempotency1763980000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_record (
        scope text NOT NULL,
        idempotency_key text NOT NULL,
        request_hash text NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, idempotency_key)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_record');
  }
}
