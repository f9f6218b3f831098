import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event identity keeps refusing is parked after `EVENT_HANDOVER_MAX_REFUSALS` refusals (`parked_at`, with the
 * last refusal in `refused_because`), so the events after it are handed over; it stays for an operator to read or
 * queue again. The relay reads what is neither handed over nor parked.
 */
export class EventOutboxParking1764700000000 implements MigrationInterface {
  name = 'EventOutboxParking1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE event_outbox ADD COLUMN handover_refusals integer NOT NULL DEFAULT 0,
         ADD COLUMN refused_because text, ADD COLUMN parked_at timestamptz`,
    );
    await queryRunner.query('DROP INDEX event_outbox_waiting');
    await queryRunner.query('CREATE INDEX event_outbox_waiting ON event_outbox (seq) WHERE handed_over_at IS NULL AND parked_at IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX event_outbox_waiting');
    await queryRunner.query('CREATE INDEX event_outbox_waiting ON event_outbox (seq) WHERE handed_over_at IS NULL');
    await queryRunner.query('ALTER TABLE event_outbox DROP COLUMN handover_refusals, DROP COLUMN refused_because, DROP COLUMN parked_at');
  }
}
