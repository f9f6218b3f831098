import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lookups of unified users that scanned the whole table (issue 21, measured with a million mirror users):
 * every created mirror record with a verified email looks its unified user up by scope and email,
 * merged users included (the partial unique index leaves those out), and every deleted record asks
 * whether another user was merged into its unified user.
 */
export class UnifiedUserLookupsAtScale1763900000900 implements MigrationInterface {
  name = 'UnifiedUserLookupsAtScale1763900000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX unified_user_vouched_email ON unified_user (email_scope, lower(email)) WHERE email_verified`);
    await queryRunner.query('CREATE INDEX unified_user_merged_into ON unified_user (merged_into) WHERE merged_into IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX unified_user_merged_into');
    await queryRunner.query('DROP INDEX unified_user_vouched_email');
  }
}
