import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The registry whose record a password link was issued for, so the page that ends it can lead back to that app. */
export class PasswordSetupApp1763900000500 implements MigrationInterface {
  name = 'PasswordSetupApp1763900000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE password_setup ADD COLUMN registry_id text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE password_setup DROP COLUMN registry_id');
  }
}
