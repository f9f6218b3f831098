import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { HandedOverEventDto } from '@stdreg/contracts';
import { insertOutboxEvent, maintenanceTransaction } from '@stdreg/server-kit/database';

/** An event in standards-api's outbox, in the shape it is handed over in. */
export type OutboxRecord = HandedOverEventDto;

/** Every query of the event outbox. */
@Injectable()
export class EventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, event: OutboxRecord): Promise<void> {
    await insertOutboxEvent(manager, event);
  }

  /** The oldest events identity does not have yet, in the order they were written (by the column: the text puts 100 before 99). */
  waiting(limit: number): Promise<(OutboxRecord & { seq: string })[]> {
    return this.dataSource.query(
      `SELECT seq::text AS seq, id, type, organization_id AS "organizationId", resource, actor, version, data,
         to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"
       FROM event_outbox WHERE handed_over_at IS NULL AND parked_at IS NULL ORDER BY event_outbox.seq LIMIT $1`,
      [limit],
    );
  }

  async markHandedOver(seqs: string[]): Promise<void> {
    await this.dataSource.query('UPDATE event_outbox SET handed_over_at = now() WHERE seq = ANY($1::bigint[])', [seqs]);
  }

  /**
   * Counts identity's refusal of an event still waiting, and parks it at the `limit`-th; its refusals so far and
   * whether it is now parked (null: it was handed over or parked meanwhile, by another replica).
   */
  async countRefusal(seq: string, because: string, limit: number): Promise<{ refusals: number; parked: boolean } | null> {
    const [rows]: [{ refusals: number; parked: boolean }[], number] = await this.dataSource.query(
      `UPDATE event_outbox SET handover_refusals = handover_refusals + 1, refused_because = $2,
         parked_at = CASE WHEN handover_refusals + 1 >= $3 THEN now() END
       WHERE seq = $1 AND handed_over_at IS NULL AND parked_at IS NULL
       RETURNING handover_refusals AS refusals, parked_at IS NOT NULL AS parked`,
      [seq, because, limit],
    );
    return rows[0] ?? null;
  }

  /** Removes the events identity has had for more than `days`: it keeps and delivers them from then on. */
  async purgeHandedOver(days: number): Promise<void> {
    await maintenanceTransaction(this.dataSource, (manager) =>
      manager.query('DELETE FROM event_outbox WHERE handed_over_at < now() - make_interval(days => $1)', [days]),
    );
  }

  async countWaiting(): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(
      'SELECT count(*)::int AS n FROM event_outbox WHERE handed_over_at IS NULL AND parked_at IS NULL',
    );
    return rows[0]!.n;
  }
}
