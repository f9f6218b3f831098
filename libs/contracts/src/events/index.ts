export * from './event-types';
export * from './event-payloads';
export * from './partner-event';
export * from './webhooks.dto';
export * from './handover.dto';
export * from './event-schemas';
