import type { Request } from 'express';
import { KeyClass } from '@stdreg/contracts';
import type { Actor } from '../../platform/audit-trail/audit.service';

// Who is calling identity, framework-free: a key on identity's own API, and (decision-subject.ts) whoever a
// service forwards to the decision endpoint.

/** A request a key guard has let through carries its caller. */
export type RequestWithCaller = Request & { caller?: KeyCaller };

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

export function actorOf(caller: KeyCaller): Actor {
  if (caller.agentSupervisorUid !== null) return { kind: 'agent', id: caller.keyPrefix, supervisor: caller.agentSupervisorUid };
  return { kind: caller.keyClass === KeyClass.Platform ? 'platform_key' : 'app_key', id: caller.keyPrefix };
}

/** A key may use a registry when it is a platform key or the registry is bound to it. */
export function mayUseRegistry(caller: KeyCaller, registryId: string): boolean {
  return caller.keyClass === KeyClass.Platform || caller.registryIds.includes(registryId);
}
