import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MAX_HANDOVER_EVENTS, shortenedText } from '@stdreg/contracts';
import { JsonLogger, PollingLoop, recordParkedEvent, serviceUrl } from '@stdreg/server-kit';
import { StandardsApiConfig } from '../config/standards-api.config';
import { EventsRepository, type OutboxRecord } from './events.repository';
import { PartnerEventsService } from './events.service';

/**
 * identity's answers that refuse what was sent, not the relay or the moment: an event it cannot take (400, 413, 422).
 * Any other (401 or 403 a credential, 404 an address, 408, 429, 5xx, no answer) is the relay's or identity's state
 * and is tried again for as long as it lasts; counting it against an event would park every event in turn.
 */
const EVENT_REFUSED_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);

/** identity refused what was sent (one of EVENT_REFUSED_STATUSES), and said why. */
interface Refusal {
  status: number;
  because: string;
}

type WaitingEvent = OutboxRecord & { seq: string };

/**
 * Hands the outbox to identity, which keeps partners' endpoints and delivers. An event leaves the
 * outbox only after identity answered that it has it (committed to its own outbox): a crash or a lost
 * answer in between sends it again, and identity keeps each id once. So there is no moment when the
 * event is in neither database. Batches go in outbox order, so one resource's events stay in order.
 *
 * An event identity refuses (EVENT_REFUSED_STATUSES) would otherwise hold up every event after it, of every
 * organization, for ever: a refused batch is handed over again one event at a time, up to the refused one, whose
 * refusals are counted; at EVENT_HANDOVER_MAX_REFUSALS it is parked (kept, logged at error level, counted in
 * `outbox_events_parked_total`) and the events after it go on, the order of its resource broken once.
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

  /**
   * One batch: how many events identity now has, or has parked (0 when the outbox is empty); throws when identity did
   * not take them (and counts a refusal against the refused event).
   */
  async relayOnce(): Promise<number> {
    const batch = await this.outbox.waiting(MAX_HANDOVER_EVENTS);
    if (batch.length === 0) return 0;
    const refusal = await this.handOver(batch);
    if (refusal === null) {
      await this.outbox.markHandedOver(batch.map((event) => event.seq));
      return batch.length;
    }
    if (batch.length === 1) return this.refused(batch[0]!, refusal);
    let relayed = 0;
    for (const event of batch) {
      const alone = await this.handOver([event]);
      if (alone !== null) return relayed + (await this.refused(event, alone));
      await this.outbox.markHandedOver([event.seq]);
      relayed++;
    }
    return relayed;
  }

  /** null when identity has them; the refusal when it refuses them; throws on any other answer or none. */
  private async handOver(events: WaitingEvent[]): Promise<Refusal | null> {
    const response = await fetch(serviceUrl(this.config.IDENTITY_URL, '/v1/events/handover'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.config.IDENTITY_SERVICE_TOKEN ?? ''}` },
      body: JSON.stringify({ events: events.map(({ seq: _seq, ...event }) => event) }),
      signal: AbortSignal.timeout(this.config.EVENT_RELAY_TIMEOUT_MS),
    });
    if (response.ok) {
      await response.body?.cancel();
      return null;
    }
    if (!EVENT_REFUSED_STATUSES.has(response.status)) {
      await response.body?.cancel();
      throw new Error(`identity answered ${response.status} to the event handover`);
    }
    return { status: response.status, because: `${response.status} ${shortenedText(await response.text(), 1000, '…')}` };
  }

  /** Counts identity's refusal of one event: parked at the limit (1, the relay goes on), else thrown (it backs off). */
  private async refused(event: WaitingEvent, refusal: Refusal): Promise<number> {
    const counted = await this.outbox.countRefusal(event.seq, refusal.because, this.config.EVENT_HANDOVER_MAX_REFUSALS);
    if (counted === null) return 1;
    if (!counted.parked) {
      throw new Error(
        `identity refused event ${event.id} (${refusal.status}), refusal ${counted.refusals} of ${this.config.EVENT_HANDOVER_MAX_REFUSALS} before it is parked`,
      );
    }
    recordParkedEvent('event-handover');
    this.logger.event(
      'error',
      'an event identity keeps refusing was parked; the events after it go on (see event_outbox.parked_at)',
      {
        eventId: event.id,
        seq: event.seq,
        type: event.type,
        organizationId: event.organizationId,
        refusals: counted.refusals,
        refusedBecause: refusal.because,
      },
      'EventRelay',
    );
    return 1;
  }

  /** Batches until the outbox is empty (tests, and the walkthrough). */
  async drain(): Promise<number> {
    let total = 0;
    for (let relayed = await this.relayOnce(); relayed > 0; relayed = await this.relayOnce()) total += relayed;
    return total;
  }
}
