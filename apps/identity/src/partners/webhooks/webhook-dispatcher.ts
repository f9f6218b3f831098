import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { PartnerEvent } from '@stdreg/contracts';
import { JsonLogger, PollingLoop, uuidv7 } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';
import { PartnerEventsService } from '../../platform/outbox/events.service';
import { ClientSecretSealer } from '../../platform/secrets/client-secret-sealer';
import { nextAttemptAt } from './retry-schedule';
import { signatureHeader, WebhookTransport, type SendResult } from './webhook-transport';
import { WebhooksRepository, type ClaimedDelivery } from './webhooks.repository';

const FAN_OUT_BATCH = 200;
const CLAIM_BATCH = 16;

export interface DispatchRound {
  fannedOut: number;
  attempted: number;
  delivered: number;
}

/** The sealing context of an endpoint's secrets: a secret sealed for one endpoint opens for no other. */
export function secretContext(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

/**
 * Delivers the outbox: fans each event out to the endpoints subscribed to it (one delivery each), then
 * sends due deliveries. Any number of replicas run one; they share the work through row locks taken
 * with SKIP LOCKED and leases, so no delivery is sent by two at the same time. Time is a parameter
 * (`dispatchOnce(now)`), so retries can be driven by a clock the tests control.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: PollingLoop | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly events: PartnerEventsService,
    private readonly transport: WebhookTransport,
    private readonly sealer: ClientSecretSealer,
    private readonly config: IdentityConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.WEBHOOK_DISPATCHER !== 'on') return;
    this.loop = new PollingLoop(
      async () => {
        const round = await this.dispatchOnce();
        return round.fannedOut > 0 || round.attempted > 0;
      },
      this.config.WEBHOOK_POLL_INTERVAL_MS,
      (error) => this.logger.error(`webhook dispatch failed: ${error.message}`, undefined, 'Webhooks'),
    ).start((wake) => this.events.onRecorded(wake));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
    await this.transport.close();
  }

  /** One round: fan out what is new, then send what is due at `now`. */
  async dispatchOnce(now: Date = new Date(), random: () => number = Math.random): Promise<DispatchRound> {
    const fannedOut = await this.fanOut(now);
    const leaseToken = randomUUID();
    const claimed = await this.webhooks.claimDue(now, CLAIM_BATCH, leaseToken, new Date(now.getTime() + this.config.WEBHOOK_LEASE_MS));
    const outcomes = await Promise.all(claimed.map((delivery) => this.attempt(delivery, now, random)));
    return { fannedOut, attempted: claimed.length, delivered: outcomes.filter(Boolean).length };
  }

  /** Rounds until nothing is left to do at `now` (tests, and the walkthrough). */
  async drain(now: Date = new Date(), random: () => number = Math.random): Promise<DispatchRound> {
    const total: DispatchRound = { fannedOut: 0, attempted: 0, delivered: 0 };
    for (;;) {
      const round = await this.dispatchOnce(now, random);
      total.fannedOut += round.fannedOut;
      total.attempted += round.attempted;
      total.delivered += round.delivered;
      if (round.fannedOut === 0 && round.attempted === 0) return total;
    }
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
        subscribers.map(({ seq, endpointId }) => {
          const event = bySeq.get(seq)!;
          return { id: uuidv7(), endpointId, eventId: event.id, eventSeq: seq, eventType: event.type, resource: event.resource };
        }),
        now,
      );
      await this.events.markFannedOut(manager, [...bySeq.keys()], now);
      return events.length;
    });
  }

  private async attempt(delivery: ClaimedDelivery, now: Date, random: () => number): Promise<boolean> {
    const result = await this.send(delivery, now);
    await this.dataSource.transaction(async (manager) => {
      if (result.ok) {
        await this.webhooks.recordAttempt(manager, delivery, result, { status: 'delivered', nextAttemptAt: null, at: now });
        return;
      }
      const next = nextAttemptAt(delivery.attempts, now, random);
      const recorded = await this.webhooks.recordAttempt(manager, delivery, result, {
        status: next ? 'pending' : 'failed',
        nextAttemptAt: next,
        at: now,
      });
      if (!next && recorded) await this.disable(manager, delivery);
    });
    return result.ok;
  }

  private send(delivery: ClaimedDelivery, now: Date): Promise<SendResult> {
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

  /** Its last attempt failed: the endpoint stops, and its organization hears of it (endpoint.disabled). */
  private async disable(manager: EntityManager, delivery: ClaimedDelivery): Promise<void> {
    const endpoint = await this.webhooks.disableForFailures(manager, delivery.endpointId);
    if (!endpoint) return;
    this.logger.warn(`webhook endpoint ${endpoint.id} disabled: its deliveries kept failing`, 'Webhooks');
    await this.events.record(manager, {
      type: 'endpoint.disabled',
      organizationId: endpoint.organizationId,
      resource: `endpoint:${endpoint.id}`,
      actor: { kind: 'system', id: 'webhooks' },
      data: { endpointId: endpoint.id, url: endpoint.url, reason: 'deliveries kept failing', lastDeliveryId: delivery.id },
    });
  }
}
