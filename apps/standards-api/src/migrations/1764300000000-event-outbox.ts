import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events for partners (issue 20): each written in the transaction of the change that causes it, and
 * kept until identity, which delivers them, has them in its own outbox (`handed_over_at`).
 */
export class EventOutbox1764300000000 implements MigrationInterface {
  name = 'EventOutbox1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
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
        handed_over_at timestamptz
      )`,
    );
    await queryRunner.query('CREATE INDEX event_outbox_waiting ON event_outbox (seq) WHERE handed_over_at IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE event_outbox');
  }
}
