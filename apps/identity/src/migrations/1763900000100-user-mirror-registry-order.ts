import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Keyset pages of one registry's users are read in id order. */
export class UserMirrorRegistryOrder1763900000100 implements MigrationInterface {
  name = 'UserMirrorRegistryOrder1763900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX user_mirror_registry_order ON user_mirror (registry_id, id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX user_mirror_registry_order');
  }
}
