import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventActor, PartnerEventType } from '@stdreg/contracts';
import { insertOutboxEvent } from '@stdreg/server-kit/database';

/** An event in identity's outbox: its own, or one standards-api handed over. */
export interface OutboxRecord {
  seq: string;
  id: string;
  type: PartnerEventType;
  organizationId: string;
  resource: string;
  actor: EventActor;
  version: number;
  data: Record<string, unknown>;
  occurredAt: Date;
}

export type NewOutboxRecord = Omit<OutboxRecord, 'seq'>;

const OUTBOX_COLUMNS = `seq::text AS seq, id, type, organization_id AS "organizationId", resource, actor, version, data,
  occurred_at AS "occurredAt"`;

/** Every query of the event outbox. */
@Injectable()
export class EventsRepository {
  /** Written with the change: the caller's transaction. Another service's event already here is skipped (its id is its key). */
  async insert(manager: EntityManager, events: NewOutboxRecord[]): Promise<number> {
    let inserted = 0;
    for (const event of events) if (await insertOutboxEvent(manager, event)) inserted++;
    return inserted;
  }

  /**
   * The oldest events not yet fanned out to endpoints, locked for this transaction; rows another
   * dispatcher holds are skipped rather than waited for. Ordered by the column: a bare `seq` would be the
   * text the row is read as, which puts 100 before 99.
   */
  lockUnfanned(manager: EntityManager, limit: number): Promise<OutboxRecord[]> {
    return manager.query(
      `SELECT ${OUTBOX_COLUMNS} FROM event_outbox WHERE fanned_out_at IS NULL ORDER BY event_outbox.seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async markFannedOut(manager: EntityManager, seqs: string[], at: Date): Promise<void> {
    await manager.query('UPDATE event_outbox SET fanned_out_at = $2 WHERE seq = ANY($1::bigint[])', [seqs, at]);
  }

  /** Removes the events fanned out before `before` that no delivery names any more; how many. */
  async purgeDeliveredBefore(manager: EntityManager, before: Date): Promise<number> {
    const [, purged]: [unknown[], number] = await manager.query(
      `DELETE FROM event_outbox o WHERE o.fanned_out_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.event_id = o.id)`,
      [before],
    );
    return purged;
  }

  async find(manager: EntityManager, id: string): Promise<OutboxRecord | null> {
    const rows: OutboxRecord[] = await manager.query(`SELECT ${OUTBOX_COLUMNS} FROM event_outbox WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }
}
