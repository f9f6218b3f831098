import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merges are looked up by the user merged away (its latest merge, for an unmerge), by the survivor (the
 * merges into it after a given one) and by either (before a unified user is deleted): without these,
 * each look-up reads every merge ever recorded.
 */
export class UserMergeLookups1763900001000 implements MigrationInterface {
  name = 'UserMergeLookups1763900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX user_merge_merged_uid ON user_merge (merged_uid, merged_at)');
    await queryRunner.query('CREATE INDEX user_merge_survivor_uid ON user_merge (survivor_uid, merged_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX user_merge_survivor_uid');
    await queryRunner.query('DROP INDEX user_merge_merged_uid');
  }
}
