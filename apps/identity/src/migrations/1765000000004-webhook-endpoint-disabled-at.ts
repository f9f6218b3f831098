import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an endpoint stopped receiving events, shown beside its status and reason. An endpoint disabled before this
 * migration takes the time it was last changed, the nearest the table knows.
 */
export class WebhookEndpointDisabledAt1765000000004 implements MigrationInterface {
  name = 'WebhookEndpointDisabledAt1765000000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_endpoint ADD COLUMN disabled_at timestamptz');
    await queryRunner.query('UPDATE webhook_endpoint SET disabled_at = updated_at WHERE NOT enabled AND deleted_at IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE webhook_endpoint DROP COLUMN disabled_at');
  }
}
