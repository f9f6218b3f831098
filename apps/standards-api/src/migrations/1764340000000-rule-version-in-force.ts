import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rule version in force at a time, for every posting (issue 21): the project's versions by start,
 * so the lookup is one backward probe however many versions start later. Before, the primary key was
 * walked from the latest version down, past every version that starts in the future (all 100 of a
 * project with 100 rule versions, when only the first was in force).
 */
export class RuleVersionInForce1764340000000 implements MigrationInterface {
  name = 'RuleVersionInForce1764340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX rule_version_effective ON rule_version (project_id, effective_from, version)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX rule_version_effective');
  }
}
