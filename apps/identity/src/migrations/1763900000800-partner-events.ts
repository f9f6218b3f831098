import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events for partners (issue 20): the outbox every change writes its event to in its own transaction
 * (identity's, and standards-api's handed over), the partners' endpoints, and one delivery per event
 * and endpoint, whose id is the `webhook-id` of every attempt.
 */
export class PartnerEvents1763900000800 implements MigrationInterface {
  name = 'PartnerEvents1763900000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE event_outbox (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        organization_id uuid NOT NULL,
        resource text NOT NULL,
        actor jsonb NOT NULL,
        version integer NOT NULL,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        fanned_out_at timestamptz
      )`,
      `CREATE INDEX event_outbox_unfanned ON event_outbox (seq) WHERE fanned_out_at IS NULL`,
      `CREATE TABLE webhook_endpoint (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organization (id),
        url text NOT NULL,
        event_types text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_for_failures boolean NOT NULL DEFAULT false,
        secret_sealed bytea NOT NULL,
        previous_secret_sealed bytea,
        previous_secret_expires_at timestamptz,
        created_by_key uuid NOT NULL REFERENCES api_key (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX webhook_endpoint_organization ON webhook_endpoint (organization_id, id)`,
      `CREATE TABLE webhook_delivery (
        id uuid PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoint (id),
        event_id uuid NOT NULL REFERENCES event_outbox (id),
        event_seq bigint NOT NULL,
        event_type text NOT NULL,
        resource text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_token uuid,
        leased_until timestamptz,
        last_attempt_at timestamptz,
        response_status integer,
        response_body text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        UNIQUE (endpoint_id, event_id)
      )`,
      `CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at) WHERE status = 'pending'`,
      // The head of each endpoint's queue per resource: order is kept per resource.
      `CREATE INDEX webhook_delivery_queue ON webhook_delivery (endpoint_id, resource, event_seq) WHERE status = 'pending'`,
      `CREATE INDEX webhook_delivery_endpoint ON webhook_delivery (endpoint_id, id)`,
    ];
    for (const statement of statements) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE webhook_delivery');
    await queryRunner.query('DROP TABLE webhook_endpoint');
    await queryRunner.query('DROP TABLE event_outbox');
  }
}
