import { Injectable } from '@nestjs/common';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventActor, PartnerEvent, PartnerEventType, WebhookDeliveryStatus } from '@stdreg/contracts';

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  eventTypes: PartnerEventType[];
  description: string | null;
  enabled: boolean;
  disabledForFailures: boolean;
  disabledReason: string | null;
  /** When it stopped receiving events (by its organization or the platform); null while enabled. */
  disabledAt: Date | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  deletedAt: Date | null;
}

export interface EndpointSecrets {
  secretSealed: Buffer;
  previousSecretSealed: Buffer | null;
  previousSecretExpiresAt: Date | null;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: PartnerEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** A delivery a dispatcher holds: what to send, where, signed with which secrets. */
export interface ClaimedDelivery extends EndpointSecrets {
  id: string;
  leaseToken: string;
  attempts: number;
  endpointId: string;
  organizationId: string;
  url: string;
  event: {
    id: string;
    type: PartnerEventType;
    organizationId: string;
    actor: EventActor;
    version: number;
    data: PartnerEvent['data'];
    occurredAt: Date;
  };
}

/** How many attempts may be on the wire at once, across replicas: to one endpoint, and to one organization's endpoints. */
export interface InFlightBounds {
  perEndpoint: number;
  perOrganization: number;
}

export interface AttemptOutcome {
  status: number | null;
  body: string | null;
  error: string | null;
}

/** The error of a delivery made while its endpoint was disabled: kept, never attempted, sent by `recover`. */
export const NOT_SENT_WHILE_DISABLED = 'not sent: the endpoint was disabled; recover sends it once the endpoint is enabled';

const ENDPOINT_COLUMNS = `id, organization_id AS "organizationId", url, event_types AS "eventTypes", description, enabled,
  disabled_for_failures AS "disabledForFailures", disabled_reason AS "disabledReason", disabled_at AS "disabledAt", previous_secret_expires_at AS "previousSecretExpiresAt",
  created_at AS "createdAt", deleted_at AS "deletedAt"`;

const DELIVERY_COLUMNS = `id, endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType", status, attempts,
  response_status AS "responseStatus", response_body AS "responseBody", error, last_attempt_at AS "lastAttemptAt",
  next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"`;

/** Every query of endpoints and deliveries. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Holds the organization's row until the transaction ends, so that two registrations of its endpoints
   * count one after the other (NO KEY UPDATE: rows that only refer to it are not held up); false when none.
   */
  async lockOrganization(manager: EntityManager, organizationId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM organization WHERE id = $1 FOR NO KEY UPDATE', [organizationId]);
    return rows.length > 0;
  }

  /** The organization's endpoints that are not removed, enabled or not. */
  async countLiveEndpoints(manager: EntityManager, organizationId: string): Promise<number> {
    const rows: { count: number }[] = await manager.query(
      'SELECT count(*)::int AS count FROM webhook_endpoint WHERE organization_id = $1 AND deleted_at IS NULL',
      [organizationId],
    );
    return rows[0]!.count;
  }

  async insertEndpoint(
    manager: EntityManager,
    endpoint: Omit<
      WebhookEndpoint,
      'createdAt' | 'disabledForFailures' | 'disabledReason' | 'disabledAt' | 'previousSecretExpiresAt' | 'deletedAt'
    > & {
      secretSealed: Buffer;
      keyId: string;
    },
  ): Promise<WebhookEndpoint> {
    const rows: WebhookEndpoint[] = await manager.query(
      `INSERT INTO webhook_endpoint (id, organization_id, url, event_types, description, enabled, secret_sealed, created_by_key, disabled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $6 THEN NULL ELSE now() END) RETURNING ${ENDPOINT_COLUMNS}`,
      [
        endpoint.id,
        endpoint.organizationId,
        endpoint.url,
        endpoint.eventTypes,
        endpoint.description,
        endpoint.enabled,
        endpoint.secretSealed,
        endpoint.keyId,
      ],
    );
    return rows[0]!;
  }

  /** One endpoint, visible to an organization (null: to every organization, an operator); a removed one only when asked. */
  async findEndpoint(
    id: string,
    organizationId: string | null,
    manager: EntityManager = this.dataSource.manager,
    includeDeleted = false,
  ): Promise<WebhookEndpoint | null> {
    const rows: WebhookEndpoint[] = await manager.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint
       WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2) AND (deleted_at IS NULL OR $3) FOR UPDATE`,
      [id, organizationId, includeDeleted],
    );
    return rows[0] ?? null;
  }

  /** An organization's endpoints (removed ones not); every endpoint, removed ones too, for an operator (null). */
  listEndpoints(organizationId: string | null, afterId: string | undefined, limit: number): Promise<WebhookEndpoint[]> {
    return this.dataSource.query(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoint
       WHERE ($1::uuid IS NULL OR (organization_id = $1 AND deleted_at IS NULL)) AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
      [organizationId, afterId ?? null, limit],
    );
  }

  async updateEndpoint(
    manager: EntityManager,
    id: string,
    change: { url?: string; eventTypes?: PartnerEventType[]; description?: string; enabled?: boolean },
  ): Promise<WebhookEndpoint> {
    const rows: [WebhookEndpoint[], number] = await manager.query(
      `UPDATE webhook_endpoint SET url = coalesce($2, url), event_types = coalesce($3, event_types), description = coalesce($4, description),
         enabled = coalesce($5, enabled), disabled_for_failures = CASE WHEN $5::boolean IS NULL THEN disabled_for_failures ELSE false END,
         disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason END,
         disabled_at = CASE WHEN $5::boolean IS NULL THEN disabled_at WHEN $5 THEN NULL ELSE coalesce(disabled_at, now()) END,
         updated_at = now()
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, change.url ?? null, change.eventTypes ?? null, change.description ?? null, change.enabled ?? null],
    );
    return rows[0][0]!;
  }

  async rotateSecret(manager: EntityManager, id: string, secretSealed: Buffer, previousExpiresAt: Date): Promise<WebhookEndpoint> {
    const rows: [WebhookEndpoint[], number] = await manager.query(
      `UPDATE webhook_endpoint SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $3, secret_sealed = $2, updated_at = now()
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
      [id, secretSealed, previousExpiresAt],
    );
    return rows[0][0]!;
  }

  /** Stops an endpoint because of its answers, at `at`; null when it was stopped already. */
  async disableForFailures(manager: EntityManager, id: string, reason: string, at: Date): Promise<WebhookEndpoint | null> {
    const rows: [WebhookEndpoint[], number] = await manager.query(
      `UPDATE webhook_endpoint SET enabled = false, disabled_for_failures = true, disabled_reason = $2, disabled_at = $3, updated_at = now()
       WHERE id = $1 AND enabled RETURNING ${ENDPOINT_COLUMNS}`,
      [id, reason, at],
    );
    return rows[0][0] ?? null;
  }

  async lockEndpoint(manager: EntityManager, id: string): Promise<void> {
    await manager.query('SELECT 1 FROM webhook_endpoint WHERE id = $1 FOR UPDATE', [id]);
  }

  /** Remembers whether an endpoint's latest attempt failed (written only when that changes). */
  async markLastAttempt(endpointId: string, failed: boolean): Promise<void> {
    await this.dataSource.query(
      'UPDATE webhook_endpoint SET last_attempt_failed = $2 WHERE id = $1 AND last_attempt_failed IS DISTINCT FROM $2',
      [endpointId, failed],
    );
  }

  /** Only one dispatcher fans out at a time, so deliveries of one resource are created in the order of its events. */
  async tryLockFanOut(manager: EntityManager): Promise<boolean> {
    const rows: { locked: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [
      'webhook-fan-out',
    ]);
    return rows[0]!.locked;
  }

  /**
   * The endpoints each event goes to: of its organization, not removed, and subscribed to its type (a test event: its
   * one endpoint); whether each is enabled (a disabled one keeps the event as a failed delivery, for `recover`).
   */
  subscribers(manager: EntityManager, seqs: string[]): Promise<{ seq: string; endpointId: string; enabled: boolean }[]> {
    return manager.query(
      `SELECT o.seq::text AS seq, e.id AS "endpointId", e.enabled FROM event_outbox o
       JOIN webhook_endpoint e ON e.organization_id = o.organization_id AND e.deleted_at IS NULL
         AND (o.type = ANY(e.event_types) OR (o.type = 'webhook.test' AND o.resource = 'endpoint:' || e.id::text))
       WHERE o.seq = ANY($1::bigint[]) ORDER BY o.seq, e.id`,
      [seqs],
    );
  }

  /**
   * One delivery per event and endpoint, created at `due`: pending and due then, or, for an endpoint that is disabled
   * (`endpointEnabled: false`), failed without an attempt, so that `recover` can send it once the endpoint is enabled.
   */
  async insertDeliveries(
    manager: EntityManager,
    deliveries: {
      id: string;
      endpointId: string;
      eventId: string;
      eventSeq: string;
      eventType: string;
      resource: string;
      endpointEnabled?: boolean;
    }[],
    due: Date,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await manager.query(
      `INSERT INTO webhook_delivery (id, endpoint_id, event_id, event_seq, event_type, resource, status, next_attempt_at, error, created_at)
       SELECT d.id, d.endpoint_id, d.event_id, d.event_seq, d.event_type, d.resource,
         CASE WHEN d.endpoint_enabled THEN 'pending' ELSE 'failed' END, CASE WHEN d.endpoint_enabled THEN $2::timestamptz END,
         CASE WHEN NOT d.endpoint_enabled THEN $3 END, $2
       FROM jsonb_to_recordset($1::jsonb)
         AS d(id uuid, endpoint_id uuid, event_id uuid, event_seq bigint, event_type text, resource text, endpoint_enabled boolean)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [
        JSON.stringify(
          deliveries.map((d) => ({
            id: d.id,
            endpoint_id: d.endpointId,
            event_id: d.eventId,
            event_seq: d.eventSeq,
            event_type: d.eventType,
            resource: d.resource,
            endpoint_enabled: d.endpointEnabled ?? true,
          })),
        ),
        due,
        NOT_SENT_WHILE_DISABLED,
      ],
    );
  }

  /**
   * Claims deliveries due at `now` for one dispatcher for `leaseMs`, at most `bounds.perEndpoint` in flight per
   * endpoint (counting every dispatcher's unexpired leases; one while its last attempt failed, so a
   * receiver that hangs or fails is probed one request at a time) and `bounds.perOrganization` per
   * organization, and taken in turns: across organizations first, counting what each already has on the wire
   * (an organization's n-th place after its in-flight ones before another's n+1-th, so a freed place goes to the
   * organization holding the fewest, however old the others' due deliveries are), then across an
   * organization's endpoints. So a slow receiver holds only its endpoint's share, a partner with many endpoints
   * only its organization's, and partners whose receivers hang, however many, take no place that frees while
   * another partner with fewer on the wire has one due. Each is the oldest pending one of its endpoint and resource (order
   * per resource). Claims are
   * taken one at a time across replicas (an advisory lock) so the bound is exact. The claim commits
   * before anything is sent; until the lease ends the delivery is due then (if this dispatcher dies,
   * another takes it up at that time), so `next_attempt_at` is never before `last_attempt_at`. Leases are
   * written and compared by the database's clock, so replicas whose clocks differ agree on when one ends.
   */
  async claimDue(now: Date, limit: number, bounds: InFlightBounds, leaseToken: string, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['webhook-claim']);
      // For UPDATE, TypeORM's query() answers [rows, affectedCount].
      const [claimed]: [{ id: string }[], number] = await manager.query(
        `WITH in_flight AS (
           SELECT endpoint_id, count(*)::int AS n FROM webhook_delivery
           WHERE lease_token IS NOT NULL AND leased_until > statement_timestamp() GROUP BY endpoint_id),
         organization_in_flight AS (
           SELECT e.organization_id, sum(f.n)::int AS n
           FROM in_flight f JOIN webhook_endpoint e ON e.id = f.endpoint_id GROUP BY e.organization_id),
         candidate AS (
           SELECT c.id, c.turn, c.next_attempt_at, c.event_seq, e.organization_id
           FROM webhook_endpoint e LEFT JOIN in_flight f ON f.endpoint_id = e.id
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at, d.event_seq, row_number() OVER (ORDER BY d.next_attempt_at, d.event_seq) AS turn
             FROM webhook_delivery d
             WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1
               AND (d.leased_until IS NULL OR d.leased_until <= statement_timestamp())
               AND NOT EXISTS (
                 SELECT 1 FROM webhook_delivery p
                 WHERE p.endpoint_id = d.endpoint_id AND p.resource = d.resource AND p.status = 'pending' AND p.event_seq < d.event_seq)
             ORDER BY d.next_attempt_at, d.event_seq
             LIMIT greatest(CASE WHEN e.last_attempt_failed THEN 1 ELSE $5::int END - coalesce(f.n, 0), 0)) c
           WHERE e.enabled AND e.deleted_at IS NULL),
         organization_candidate AS (
           SELECT c.id, c.turn, c.next_attempt_at, c.event_seq, coalesce(o.n, 0) AS organization_in_flight,
             row_number() OVER (PARTITION BY c.organization_id ORDER BY c.turn, c.next_attempt_at, c.event_seq) AS organization_turn
           FROM candidate c LEFT JOIN organization_in_flight o ON o.organization_id = c.organization_id),
         due AS (
           SELECT d.id FROM webhook_delivery d JOIN organization_candidate c ON c.id = d.id
           WHERE d.status = 'pending' AND (d.leased_until IS NULL OR d.leased_until <= statement_timestamp())
             AND c.organization_turn <= $6::int - c.organization_in_flight
           ORDER BY c.organization_in_flight + c.organization_turn, c.turn, c.next_attempt_at, c.event_seq LIMIT $2
           FOR UPDATE OF d SKIP LOCKED)
         UPDATE webhook_delivery w SET lease_token = $3, leased_until = lease.ends, next_attempt_at = lease.ends, attempts = w.attempts + 1,
           last_attempt_at = $1
         FROM due, (SELECT statement_timestamp() + $4 * interval '1 millisecond' AS ends) lease WHERE w.id = due.id RETURNING w.id`,
        [now, limit, leaseToken, leaseMs, bounds.perEndpoint, bounds.perOrganization],
      );
      if (claimed.length === 0) return [];
      return manager.query(
        `SELECT d.id, d.lease_token AS "leaseToken", d.attempts, d.endpoint_id AS "endpointId", e.organization_id AS "organizationId", e.url,
           e.secret_sealed AS "secretSealed", e.previous_secret_sealed AS "previousSecretSealed",
           e.previous_secret_expires_at AS "previousSecretExpiresAt",
           jsonb_build_object('id', o.id, 'type', o.type, 'organizationId', o.organization_id, 'actor', o.actor, 'version', o.version,
             'data', o.data, 'occurredAt', o.occurred_at) AS event
         FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id JOIN event_outbox o ON o.id = d.event_id
         WHERE d.id = ANY($1::uuid[]) ORDER BY d.event_seq`,
        [claimed.map((row) => row.id)],
      );
    });
  }

  /** Records an attempt's outcome, if the lease is still this dispatcher's; `next` null: the delivery is over (delivered or failed). */
  async recordAttempt(
    manager: EntityManager,
    claim: { id: string; leaseToken: string },
    outcome: AttemptOutcome & { status: number | null },
    result: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null; at: Date },
  ): Promise<boolean> {
    const rows: [unknown[], number] = await manager.query(
      `UPDATE webhook_delivery SET status = $3, next_attempt_at = $4, response_status = $5, response_body = $6, error = $7,
         lease_token = NULL, leased_until = NULL, delivered_at = CASE WHEN $3 = 'delivered' THEN $8::timestamptz ELSE delivered_at END
       WHERE id = $1 AND lease_token = $2 RETURNING id`,
      [claim.id, claim.leaseToken, result.status, result.nextAttemptAt, outcome.status, outcome.body, outcome.error, result.at],
    );
    return rows[0].length > 0;
  }

  listDeliveries(
    endpointId: string,
    status: WebhookDeliveryStatus | undefined,
    afterId: string | undefined,
    limit: number,
  ): Promise<WebhookDelivery[]> {
    return this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_delivery
       WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR id > $3) ORDER BY id LIMIT $4`,
      [endpointId, status ?? null, afterId ?? null, limit],
    );
  }

  /**
   * Removes an endpoint: marked deleted and stopped, its pending deliveries dropped (an attempt on the
   * wire records nothing: its lease is gone). Its history stays until `purgeDeleted`. The number dropped.
   */
  async softDelete(manager: EntityManager, id: string, now: Date): Promise<number> {
    await manager.query(`UPDATE webhook_endpoint SET deleted_at = $2, enabled = false, updated_at = now() WHERE id = $1`, [id, now]);
    const [, dropped]: [unknown[], number] = await manager.query(
      `UPDATE webhook_delivery SET status = 'dropped', next_attempt_at = NULL, lease_token = NULL, leased_until = NULL
       WHERE endpoint_id = $1 AND status = 'pending'`,
      [id],
    );
    return dropped;
  }

  /**
   * Forgets a live endpoint's deliveries created before `before` that are no longer pending (delivered, failed or
   * dropped); how many. A removed endpoint's are kept with it for its audit period (`purgeDeleted`).
   */
  async purgeEndedDeliveries(manager: EntityManager, before: Date): Promise<number> {
    const [, purged]: [unknown[], number] = await manager.query(
      `DELETE FROM webhook_delivery d USING webhook_endpoint e
        WHERE e.id = d.endpoint_id AND e.deleted_at IS NULL AND d.status <> 'pending' AND d.created_at < $1`,
      [before],
    );
    return purged;
  }

  /** Forgets endpoints removed before `before`, with their deliveries; how many endpoints. */
  purgeDeleted(before: Date): Promise<number> {
    return maintenanceTransaction(this.dataSource, async (manager) => {
      await manager.query(`DELETE FROM webhook_delivery WHERE endpoint_id IN (SELECT id FROM webhook_endpoint WHERE deleted_at < $1)`, [
        before,
      ]);
      const [, purged]: [unknown[], number] = await manager.query(`DELETE FROM webhook_endpoint WHERE deleted_at < $1`, [before]);
      return purged;
    });
  }

  /**
   * Queues again, due at `now` and under their own ids, the endpoint's failed deliveries created since
   * `since` (the claim then takes them oldest first), and brings forward the pending ones waiting for a retry.
   */
  async recover(manager: EntityManager, endpointId: string, since: Date, now: Date): Promise<{ queued: number; broughtForward: number }> {
    const [, queued]: [unknown[], number] = await manager.query(
      `UPDATE webhook_delivery SET status = 'pending', next_attempt_at = $3
       WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2`,
      [endpointId, since, now],
    );
    const [, broughtForward]: [unknown[], number] = await manager.query(
      `UPDATE webhook_delivery SET next_attempt_at = $3
       WHERE endpoint_id = $1 AND status = 'pending' AND created_at >= $2 AND next_attempt_at > $3 AND lease_token IS NULL`,
      [endpointId, since, now],
    );
    return { queued, broughtForward };
  }

  /** Sends a delivery again, under its own webhook-id: pending and due now, its attempts counted on. */
  async replay(manager: EntityManager, endpointId: string, deliveryId: string, now: Date): Promise<WebhookDelivery | null> {
    const rows: [WebhookDelivery[], number] = await manager.query(
      `UPDATE webhook_delivery SET status = 'pending', next_attempt_at = $3 WHERE id = $2 AND endpoint_id = $1 RETURNING ${DELIVERY_COLUMNS}`,
      [endpointId, deliveryId, now],
    );
    return rows[0][0] ?? null;
  }
}
