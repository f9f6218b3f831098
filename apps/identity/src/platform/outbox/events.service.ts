import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  EVENT_PAYLOAD_VERSION,
  type EventActor,
  type EventHandoverResultDto,
  type HandedOverEventDto,
  type OutboxEvent,
  type PartnerEventType,
} from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../audit-trail/actor';
import { EventsRepository, type OutboxRecord } from './events.repository';

/** The actor of an event, from the actor the audit log records: keys by their public prefix, people by uid. */
export function eventActorOf(actor: Actor): EventActor {
  switch (actor.kind) {
    case 'app_key':
    case 'platform_key':
      return { kind: 'key', id: actor.id };
    case 'human':
      return { kind: 'person', id: actor.id };
    case 'agent':
      return actor.supervisor === undefined
        ? { kind: 'agent', id: actor.id }
        : { kind: 'agent', id: actor.id, supervisor: actor.supervisor };
    default:
      return { kind: 'system', id: actor.id };
  }
}

/**
 * identity's transactional outbox: an event is written in the transaction of the change that causes
 * it, so it exists exactly when the change does. The dispatcher (webhooks) reads it from there.
 */
@Injectable()
export class PartnerEventsService {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventsRepository,
  ) {}

  async record<T extends PartnerEventType>(manager: EntityManager, event: OutboxEvent<T>, occurredAt = new Date()): Promise<void> {
    await this.events.insert(manager, [{ ...event, id: uuidv7(), version: EVENT_PAYLOAD_VERSION, data: { ...event.data }, occurredAt }]);
    this.wake();
  }

  /**
   * Events standards-api wrote to its own outbox, handed over in its order, in one transaction (by a
   * platform service: the route takes a service credential, and standards-api's event types only). An event
   * already here is not written again, so a batch sent twice (the answer lost, a second replica) changes nothing.
   */
  async handover(events: HandedOverEventDto[]): Promise<EventHandoverResultDto> {
    const accepted = await this.dataSource.transaction((manager) =>
      this.events.insert(
        manager,
        events.map((event) => ({ ...event, occurredAt: new Date(event.occurredAt) })),
      ),
    );
    if (accepted > 0) this.wake();
    return { accepted };
  }

  lockUnfanned(manager: EntityManager, limit: number): Promise<OutboxRecord[]> {
    return this.events.lockUnfanned(manager, limit);
  }

  markFannedOut(manager: EntityManager, seqs: string[], at: Date): Promise<void> {
    return this.events.markFannedOut(manager, seqs, at);
  }

  purgeDeliveredBefore(manager: EntityManager, before: Date): Promise<number> {
    return this.events.purgeDeliveredBefore(manager, before);
  }

  find(manager: EntityManager, id: string): Promise<OutboxRecord | null> {
    return this.events.find(manager, id);
  }

  /** Tells an in-process dispatcher that there may be work (it polls anyway; this only shortens the wait). */
  onRecorded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private wake(): void {
    for (const listener of this.listeners) listener();
  }
}
