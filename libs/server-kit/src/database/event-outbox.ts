import type { EntityManager } from 'typeorm';

/** A partner event as both services' `event_outbox` tables hold it (same columns in each). */
export interface OutboxEvent {
  id: string;
  type: string;
  organizationId: string;
  resource: string;
  actor: unknown;
  version: number;
  data: unknown;
  occurredAt: Date | string;
}

/**
 * Writes one event to the service's outbox in the caller's transaction, so it commits with the change
 * it tells of. An event whose id is already there is skipped (a handover delivered twice): false.
 */
export async function insertOutboxEvent(manager: EntityManager, event: OutboxEvent): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO event_outbox (id, type, organization_id, resource, actor, version, data, occurred_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      event.id,
      event.type,
      event.organizationId,
      event.resource,
      JSON.stringify(event.actor),
      event.version,
      JSON.stringify(event.data),
      event.occurredAt,
    ],
  );
  return rows.length > 0;
}
