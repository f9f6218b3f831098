import type { PartnerEventPayloads } from './event-payloads';
import type { EventActor, PartnerEventType } from './event-types';

/**
 * One event as a partner's endpoint receives it (the request body of a webhook). `id` is the event's
 * id; the `webhook-id` header is the delivery's, the same on every retry of that delivery.
 */
export interface PartnerEvent<T extends PartnerEventType = PartnerEventType> {
  id: string;
  type: T;
  /** ISO 8601: when the change was committed. */
  timestamp: string;
  organizationId: string;
  actor: EventActor;
  /** The payload's version (EVENT_PAYLOAD_VERSION). */
  version: number;
  data: PartnerEventPayloads[T];
}

/** An event as a service writes it to its outbox, in the transaction of the change. */
export interface OutboxEvent<T extends PartnerEventType = PartnerEventType> {
  type: T;
  organizationId: string;
  /** What order is kept by: the events of one resource (a project, a registry, …) arrive in order. */
  resource: string;
  actor: EventActor;
  data: PartnerEventPayloads[T];
}
