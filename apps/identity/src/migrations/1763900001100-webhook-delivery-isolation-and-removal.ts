import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Partner webhooks heard and removable (issue 27): an endpoint is removed by marking it deleted (its
 * history stays for the platform for the audit period, then is purged), a removed endpoint's pending
 * deliveries become `dropped`, an endpoint says why the platform stopped it and whether its last attempt
 * failed (a failing endpoint gets one attempt at a time), and the claim finds each endpoint's due
 * deliveries and its attempts in flight by index.
 */
export class WebhookDeliveryIsolationAndRemoval1763900001100 implements MigrationInterface {
  name = 'WebhookDeliveryIsolationAndRemoval1763900001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `ALTER TABLE webhook_endpoint ADD COLUMN deleted_at timestamptz, ADD COLUMN disabled_reason text,
        ADD COLUMN last_attempt_failed boolean NOT NULL DEFAULT false`,
      `UPDATE webhook_endpoint SET disabled_reason = 'deliveries kept failing' WHERE disabled_for_failures`,
      `CREATE INDEX webhook_endpoint_deleted ON webhook_endpoint (deleted_at) WHERE deleted_at IS NOT NULL`,
      `ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_status_check`,
      `ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_status_check CHECK (status IN ('pending', 'delivered', 'failed', 'dropped'))`,
      `CREATE INDEX webhook_delivery_endpoint_due ON webhook_delivery (endpoint_id, next_attempt_at, event_seq) WHERE status = 'pending'`,
      `CREATE INDEX webhook_delivery_in_flight ON webhook_delivery (endpoint_id) WHERE lease_token IS NOT NULL`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `DROP INDEX webhook_delivery_in_flight`,
      `DROP INDEX webhook_delivery_endpoint_due`,
      `UPDATE webhook_delivery SET status = 'failed' WHERE status = 'dropped'`,
      `ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_status_check`,
      `ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_status_check CHECK (status IN ('pending', 'delivered', 'failed'))`,
      `DROP INDEX webhook_endpoint_deleted`,
      `ALTER TABLE webhook_endpoint DROP COLUMN last_attempt_failed, DROP COLUMN disabled_reason, DROP COLUMN deleted_at`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }
}
