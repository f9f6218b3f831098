import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EVENT_PAYLOAD_VERSION, type EventActor, type OutboxEvent, type StandardsEventType } from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import type { Caller } from '../callers/caller';
import { EventsRepository } from './events.repository';

/** The actor of an event: a person by uid, a key by its public prefix, an agent with the person accountable for it. */
export function eventActorOf(auth: Caller): EventActor {
  const { kind, id, keyPrefix, supervisorId } = auth.subject;
  switch (kind) {
    case 'human':
      return { kind: 'person', id };
    case 'agent':
      return supervisorId === undefined ? { kind: 'agent', id } : { kind: 'agent', id, supervisor: supervisorId };
    default:
      return { kind: 'key', id: keyPrefix ?? id };
  }
}

/**
 * standards-api's transactional outbox: an event is written in the transaction of the change that
 * causes it, so it exists exactly when the change does; the relay hands it to identity afterwards.
 */
@Injectable()
export class PartnerEventsService {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly events: EventsRepository) {}

  async record<T extends StandardsEventType>(
    manager: EntityManager,
    auth: Caller,
    event: Omit<OutboxEvent<T>, 'actor' | 'organizationId'>,
  ): Promise<void> {
    await this.events.insert(manager, {
      id: uuidv7(),
      type: event.type,
      organizationId: auth.organizationId,
      resource: event.resource,
      actor: eventActorOf(auth),
      version: EVENT_PAYLOAD_VERSION,
      data: { ...event.data },
      occurredAt: new Date().toISOString(),
    });
    for (const listener of this.listeners) listener();
  }

  /** Tells the in-process relay there may be work (it polls anyway; this only shortens the wait). */
  onRecorded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
