import { KeyClass } from '@stdreg/contracts';
import type { Actor } from '../../platform/audit-trail/actor';
import type { DecisionSubject } from './decision-subject';

// Who is calling identity, framework-free: a key on identity's own API, and (decision-subject.ts) whoever a
// service forwards to the decision endpoint; and, for each, the actor an audit entry names.

/** An HTTP request a key guard has let through carries its caller (structural, so this file needs no HTTP framework). */
export interface RequestWithCaller {
  headers: { authorization?: string | undefined };
  method: string;
  originalUrl: string;
  caller?: KeyCaller;
}

/** The API key a request was made with, as resolved by KeyAuthGuard. */
export interface KeyCaller {
  keyId: string;
  keyPrefix: string;
  keyClass: KeyClass;
  organizationId: string | null;
  registryIds: string[];
  maxApps: number;
  /** Set on an agent's key (AGT-1): the person accountable for it, whom every audit entry of its actions names. */
  agentSupervisorUid: string | null;
}

/** What a key is as a caller; an agent's key (AGT-1) is of the app class, and is an agent's before it is an app key. */
export type KeyKind = { kind: 'platform_key' } | { kind: 'app_key' } | { kind: 'agent'; supervisorUid: string };

/** The one reading of a key's class and supervisor as who is calling: for the audit trail, the decision subject and the route guards. */
export function keyKindOf(key: Pick<KeyCaller, 'keyClass' | 'agentSupervisorUid'>): KeyKind {
  if (key.agentSupervisorUid !== null) return { kind: 'agent', supervisorUid: key.agentSupervisorUid };
  return { kind: key.keyClass === KeyClass.Platform ? 'platform_key' : 'app_key' };
}

/** The actor of a key: the key itself, by its prefix; an agent's key names its supervisor. Also a refused key identity issued. */
export function actorOf(caller: Pick<KeyCaller, 'keyPrefix' | 'keyClass' | 'agentSupervisorUid'>): Actor {
  const key = keyKindOf(caller);
  return key.kind === 'agent'
    ? { kind: 'agent', id: caller.keyPrefix, supervisor: key.supervisorUid }
    : { kind: key.kind, id: caller.keyPrefix };
}

/** The actor of a decision's subject: a person by uid, an agent by its client or key under its supervisor, a key by its prefix. */
export function actorOfSubject(subject: DecisionSubject): Actor {
  switch (subject.kind) {
    case 'human':
      return { kind: 'human', id: subject.uid };
    case 'agent':
      return { kind: 'agent', id: subject.via === 'token' ? subject.clientId : subject.keyPrefix, supervisor: subject.supervisorUid };
    default:
      return { kind: subject.kind, id: subject.keyPrefix };
  }
}

/** A key may use a registry when it is a platform key or the registry is bound to it. */
export function mayUseRegistry(caller: KeyCaller, registryId: string): boolean {
  return caller.keyClass === KeyClass.Platform || caller.registryIds.includes(registryId);
}
