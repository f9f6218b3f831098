/** The events partners can subscribe to, by the service whose change causes them. */
export const STANDARDS_EVENT_TYPES = [
  'split_project.created',
  'split_project.discarded',
  'scenario.revised',
  'scenario.branched',
  'rule_version.activated',
  'rule_version.created',
  'settlement_run.posted',
  'settlement_run.corrected',
] as const;

export const IDENTITY_EVENT_TYPES = [
  'app.registered',
  'app.deleted',
  'users.synced',
  'user.merged',
  'user.unmerged',
  'key.revoked',
  'role.granted',
  'role.revoked',
] as const;

/** What the platform says about the delivery itself: an endpoint it stopped, and a test on request. */
export const DELIVERY_EVENT_TYPES = ['endpoint.disabled', 'webhook.test'] as const;

export const PARTNER_EVENT_TYPES = [...STANDARDS_EVENT_TYPES, ...IDENTITY_EVENT_TYPES, ...DELIVERY_EVENT_TYPES] as const;

export type StandardsEventType = (typeof STANDARDS_EVENT_TYPES)[number];
export type IdentityEventType = (typeof IDENTITY_EVENT_TYPES)[number];
export type PartnerEventType = (typeof PARTNER_EVENT_TYPES)[number];

/** The version of every payload below; a breaking change to one makes a new type or a new version. */
export const EVENT_PAYLOAD_VERSION = 1;

/** Who caused an event: a person (uid), a key (its public prefix), an agent (key prefix and supervising person), or the platform. */
export const EVENT_ACTOR_KINDS = ['person', 'key', 'agent', 'system'] as const;
export type EventActorKind = (typeof EVENT_ACTOR_KINDS)[number];

export interface EventActor {
  kind: EventActorKind;
  id: string;
  /** For an agent: the uid of the person accountable for it. */
  supervisor?: string;
}
