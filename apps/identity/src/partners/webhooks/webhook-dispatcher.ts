import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { maintenanceTransaction } from '@stdreg/server-kit/database';
import { DataSource, type EntityManager } from 'typeorm';
import type { PartnerEvent, WebhookDeliveryStatus } from '@stdreg/contracts';
import { JsonLogger, PollingLoop, uuidv7 } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { IdentityConfig } from '../../platform/config/identity.config';
import { PartnerEventsService } from '../../platform/outbox/events.service';
import { ClientSecretSealer, webhookEndpointSealContext } from '../../platform/secrets/client-secret-sealer';
import { nextAttemptAt, RETRY_AFTER_STATUSES } from './retry-schedule';
import { signatureHeader, WebhookTransport, type SendResult } from './webhook-transport';
import { WebhooksRepository, type ClaimedDelivery } from './webhooks.repository';

const FAN_OUT_BATCH = 200;
/** Removed endpoints and their deliveries are kept this long for the platform, then purged. */
export const REMOVED_ENDPOINT_AUDIT_DAYS = 90;
/** How far back a recovery may reach: failed deliveries older than this are not sent again. */
export const RECOVER_WINDOW_DAYS = 30;
/**
 * A live endpoint's deliveries that are no longer pending are kept this long, a day past the reach of `recover`
 * (RECOVER_WINDOW_DAYS), then purged with the events no delivery names any more.
 */
export const DELIVERY_HISTORY_DAYS = RECOVER_WINDOW_DAYS + 1;
const PURGE_EVERY_MS = 3_600_000;

export interface DispatchRound {
  fannedOut: number;
  /** Attempts started in this round (they finish on their own; `drain` waits for them). */
  attempted: number;
}

/** The sealing context of an endpoint's secrets: a secret sealed for one endpoint opens for no other. */
export const secretContext = webhookEndpointSealContext;

/**
 * Delivers the outbox: fans each event out to the endpoints subscribed to it (one delivery each), then
 * sends due deliveries. Any number of replicas run one; they share the work through row locks taken
 * with SKIP LOCKED and leases, so no delivery is sent by two at the same time. A round does not wait
 * for its attempts: each runs on its own (up to WEBHOOK_MAX_IN_FLIGHT per replica,
 * WEBHOOK_ENDPOINT_CONCURRENCY per endpoint, one while the endpoint's last attempt failed), and a
 * finished one frees its place for the next claim, so a receiver that hangs holds only its own
 * endpoint's few places. Time is a parameter (`dispatchOnce(now)`, the clock running on from it during
 * the round), so retries can be driven by a clock the tests control; leases alone run on the database's
 * clock, the one every replica shares.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: PollingLoop | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private settled = 0;
  private nextPurgeAt = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly events: PartnerEventsService,
    private readonly audit: AuditService,
    private readonly transport: WebhookTransport,
    private readonly sealer: ClientSecretSealer,
    private readonly config: IdentityConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WEBHOOK_DISPATCHER !== 'on') return;
    this.loop = new PollingLoop(
      async () => {
        const settledBefore = this.settled;
        const round = await this.dispatchOnce();
        // An attempt that finished during the round freed a place the round may not have seen.
        return round.fannedOut > 0 || round.attempted > 0 || this.settled !== settledBefore;
      },
      this.config.WEBHOOK_POLL_INTERVAL_MS,
      (error) => this.logger.error(`webhook dispatch failed: ${error.message}`, undefined, 'Webhooks'),
    ).start((wake) => this.events.onRecorded(wake));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
    // Attempts on the wire end within the timeout; their outcomes are recorded before the transport closes.
    await Promise.all(this.inFlight);
    await this.transport.close();
  }

  /** One round: fan out what is new, then start sending what is due at `now`, as far as there are free places. */
  async dispatchOnce(now: Date = new Date(), random: () => number = Math.random): Promise<DispatchRound> {
    const origin = performance.now();
    const clock = () => new Date(now.getTime() + (performance.now() - origin));
    const fannedOut = await this.fanOut(now);
    await this.purgeRemoved(now);
    const free = this.config.WEBHOOK_MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0) return { fannedOut, attempted: 0 };
    const claimed = await this.webhooks.claimDue(
      now,
      free,
      { perEndpoint: this.config.WEBHOOK_ENDPOINT_CONCURRENCY, perOrganization: this.config.WEBHOOK_ORGANIZATION_CONCURRENCY },
      randomUUID(),
      this.config.WEBHOOK_LEASE_MS,
    );
    for (const delivery of claimed) this.track(this.attempt(delivery, now, clock, random));
    return { fannedOut, attempted: claimed.length };
  }

  /** Rounds until nothing is left to do at `now` and every attempt has finished (tests, and the walkthrough). */
  async drain(now: Date = new Date(), random: () => number = Math.random): Promise<DispatchRound> {
    const total: DispatchRound = { fannedOut: 0, attempted: 0 };
    for (;;) {
      const settledBefore = this.settled;
      const round = await this.dispatchOnce(now, random);
      total.fannedOut += round.fannedOut;
      total.attempted += round.attempted;
      // An attempt that finished while the round claimed may have let the next of its resource through.
      if (round.fannedOut > 0 || round.attempted > 0 || this.settled !== settledBefore) continue;
      if (this.inFlight.size === 0) return total;
      await Promise.race(this.inFlight);
    }
  }

  private track(attempt: Promise<void>): void {
    const tracked = attempt
      .catch((error: Error) => this.logger.error(`webhook attempt failed: ${error.message}`, undefined, 'Webhooks'))
      .finally(() => {
        this.inFlight.delete(tracked);
        this.settled++;
        this.loop?.wake();
      });
    this.inFlight.add(tracked);
  }

  /** Now and then, forget endpoints removed longer ago than the audit period. */
  private async purgeRemoved(now: Date): Promise<void> {
    if (now.getTime() < this.nextPurgeAt) return;
    this.nextPurgeAt = now.getTime() + PURGE_EVERY_MS;
    const purged = await this.webhooks.purgeDeleted(new Date(now.getTime() - REMOVED_ENDPOINT_AUDIT_DAYS * 86_400_000));
    if (purged > 0) this.logger.log(`purged ${purged} webhook endpoints removed over ${REMOVED_ENDPOINT_AUDIT_DAYS} days ago`, 'Webhooks');
    const historyBefore = new Date(now.getTime() - DELIVERY_HISTORY_DAYS * 86_400_000);
    const deliveries = await maintenanceTransaction(this.dataSource, async (manager) => {
      const ended = await this.webhooks.purgeEndedDeliveries(manager, historyBefore);
      await this.events.purgeDeliveredBefore(manager, historyBefore);
      return ended;
    });
    if (deliveries > 0)
      this.logger.log(`purged ${deliveries} webhook deliveries that ended over ${DELIVERY_HISTORY_DAYS} days ago`, 'Webhooks');
  }

  private fanOut(now: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.webhooks.tryLockFanOut(manager))) return 0;
      const events = await this.events.lockUnfanned(manager, FAN_OUT_BATCH);
      if (events.length === 0) return 0;
      const bySeq = new Map(events.map((event) => [event.seq, event]));
      const subscribers = await this.webhooks.subscribers(
        manager,
        events.map((event) => event.seq),
      );
      await this.webhooks.insertDeliveries(
        manager,
        subscribers.map(({ seq, endpointId, enabled }) => {
          const event = bySeq.get(seq)!;
          return {
            id: uuidv7(),
            endpointId,
            eventId: event.id,
            eventSeq: seq,
            eventType: event.type,
            resource: event.resource,
            endpointEnabled: enabled,
          };
        }),
        now,
      );
      await this.events.markFannedOut(manager, [...bySeq.keys()], now);
      return events.length;
    });
  }

  /** One attempt; its outcome and the next attempt's time are counted from when it ended (`clock`). */
  private async attempt(delivery: ClaimedDelivery, now: Date, clock: () => Date, random: () => number): Promise<void> {
    // A delivery that cannot even be sent (its endpoint's signing secret does not open with this key) is a failed
    // attempt like any other: thrown, it was never recorded, and was claimed again each lease for ever, holding up
    // its resource's later events at that endpoint.
    const result = await this.send(delivery, now).catch(notSent);
    const endedAt = clock();
    const outcome = outcomeOf(result, delivery.attempts, endedAt, random);
    await this.dataSource.transaction(async (manager) => {
      // Endpoint before delivery, the order a removal locks them in, when this outcome stops the endpoint.
      if (outcome.disable) await this.webhooks.lockEndpoint(manager, delivery.endpointId);
      const recorded = await this.webhooks.recordAttempt(manager, delivery, result, {
        status: outcome.status,
        nextAttemptAt: outcome.next,
        at: endedAt,
      });
      if (recorded && outcome.disable) await this.disable(manager, delivery, outcome.disable, endedAt);
    });
    // Outside the transaction above, for the same lock order.
    await this.webhooks.markLastAttempt(delivery.endpointId, !result.ok);
  }

  private async send(delivery: ClaimedDelivery, now: Date): Promise<SendResult> {
    const { event } = delivery;
    const body: PartnerEvent = {
      id: event.id,
      type: event.type,
      timestamp: new Date(event.occurredAt).toISOString(),
      organizationId: event.organizationId,
      actor: event.actor,
      version: event.version,
      data: event.data,
    };
    const payload = JSON.stringify(body);
    const secrets = [this.open(delivery, delivery.secretSealed)];
    if (delivery.previousSecretSealed && delivery.previousSecretExpiresAt && new Date(delivery.previousSecretExpiresAt) > now) {
      secrets.push(this.open(delivery, delivery.previousSecretSealed));
    }
    const timestamp = new Date();
    return this.transport.send(delivery.url, payload, {
      'content-type': 'application/json',
      'user-agent': 'stdreg-webhooks/1',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signatureHeader(secrets, delivery.id, timestamp, payload),
    });
  }

  private open(delivery: ClaimedDelivery, sealed: Buffer): string {
    const secret = this.sealer.open(secretContext(delivery.endpointId), sealed);
    if (secret === null) throw new Error(`the signing secret of endpoint ${delivery.endpointId} does not open with this key`);
    return secret;
  }

  /** Its last attempt failed, or it answered 410 Gone: the endpoint stops, and its organization hears of it (endpoint.disabled). */
  private async disable(manager: EntityManager, delivery: ClaimedDelivery, reason: string, at: Date): Promise<void> {
    const endpoint = await this.webhooks.disableForFailures(manager, delivery.endpointId, reason, at);
    if (!endpoint) return;
    this.logger.warn(`webhook endpoint ${endpoint.id} disabled: ${reason}`, 'Webhooks');
    const actor = { kind: 'system', id: 'webhooks' } as const;
    await this.audit.record(
      actor,
      {
        action: 'webhooks.disable',
        target: endpoint.id,
        organizationId: endpoint.organizationId,
        detail: { organizationId: endpoint.organizationId, reason, lastDeliveryId: delivery.id },
      },
      manager,
    );
    await this.events.record(manager, {
      type: 'endpoint.disabled',
      organizationId: endpoint.organizationId,
      resource: `endpoint:${endpoint.id}`,
      actor,
      data: { endpointId: endpoint.id, url: endpoint.url, reason, lastDeliveryId: delivery.id },
    });
  }
}

function notSent(error: unknown): SendResult {
  return {
    ok: false,
    status: null,
    body: null,
    error: `not sent: ${error instanceof Error ? error.message : String(error)}`,
    retryAfterSeconds: null,
  };
}

/** What an attempt's answer means: delivered, tried again when, or over (and whether the endpoint stops, why). */
function outcomeOf(
  result: SendResult,
  attempts: number,
  endedAt: Date,
  random: () => number,
): { status: WebhookDeliveryStatus; next: Date | null; disable: string | null } {
  if (result.ok) return { status: 'delivered', next: null, disable: null };
  if (result.status === 410) return { status: 'failed', next: null, disable: 'the endpoint answered 410 Gone' };
  const asked = result.status !== null && RETRY_AFTER_STATUSES.has(result.status) ? result.retryAfterSeconds : null;
  const next = nextAttemptAt(attempts, endedAt, random, asked);
  return next ? { status: 'pending', next, disable: null } : { status: 'failed', next: null, disable: 'deliveries kept failing' };
}
