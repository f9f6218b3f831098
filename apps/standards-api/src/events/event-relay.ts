import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MAX_HANDOVER_EVENTS } from '@stdreg/contracts';
import { JsonLogger, PollingLoop, serviceUrl } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { EventsRepository } from './events.repository';
import { PartnerEventsService } from './events.service';

/**
 * Hands the outbox to identity, which keeps partners' endpoints and delivers. An event leaves the
 * outbox only after identity answered that it has it (committed to its own outbox): a crash or a lost
 * answer in between sends it again, and identity keeps each id once. So there is no moment when the
 * event is in neither database. Batches go in outbox order, so one resource's events stay in order.
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: PollingLoop | null = null;

  constructor(
    private readonly outbox: EventsRepository,
    private readonly events: PartnerEventsService,
    private readonly config: StandardsApiConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EVENT_RELAY !== 'on') return;
    this.loop = new PollingLoop(
      async () => (await this.relayOnce()) > 0,
      this.config.EVENT_RELAY_INTERVAL_MS,
      (error) => this.logger.warn(`event handover to identity failed, will retry: ${error.message}`, 'EventRelay'),
    ).start((wake) => this.events.onRecorded(wake));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /** One batch: how many events identity now has (0 when the outbox is empty); throws when identity did not take them. */
  async relayOnce(): Promise<number> {
    const batch = await this.outbox.waiting(MAX_HANDOVER_EVENTS);
    if (batch.length === 0) return 0;
    const response = await fetch(serviceUrl(this.config.IDENTITY_URL, '/v1/events/handover'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.config.IDENTITY_SERVICE_TOKEN ?? ''}` },
      body: JSON.stringify({ events: batch.map(({ seq: _seq, ...event }) => event) }),
      signal: AbortSignal.timeout(this.config.EVENT_RELAY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`identity answered ${response.status} to the event handover`);
    await response.body?.cancel();
    await this.outbox.markHandedOver(batch.map((event) => event.seq));
    return batch.length;
  }

  /** Batches until the outbox is empty (tests, and the walkthrough). */
  async drain(): Promise<number> {
    let total = 0;
    for (let relayed = await this.relayOnce(); relayed > 0; relayed = await this.relayOnce()) total += relayed;
    return total;
  }
}
