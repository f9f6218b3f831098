import { actionDefinition, isAction, type DecisionSubjectDto, type DenialReason } from '@stdreg/contracts';
import type { DecisionSubject } from '../subjects/decision-subject';

export interface DecisionResource {
  organizationId?: string | undefined;
  projectId?: string | undefined;
}

export type DecisionOutcome =
  | { decision: 'allow'; reason: string }
  | { decision: 'deny'; reason: Exclude<DenialReason, 'authentication_too_old'> }
  | { decision: 'deny'; reason: 'authentication_too_old'; maxAge: number };

/** How recent a person's sign-in must be for a formal write, and the time to measure it at (seconds since the epoch). */
export interface SignInFreshness {
  maxAgeSeconds: number;
  nowSeconds: number;
}

export type { DenialReason } from '@stdreg/contracts';

/**
 * The catalogue applied to a resolved subject. Formal writes need a human; keys act only for
 * non-formal actions, app keys only in their own organization; humans need a role the action
 * lists, bound in the resource's organization or globally. An action outside any organization
 * (a tool call) needs only a valid credential. With `freshness`, a formal write the person's roles
 * allow also needs a sign-in no older than its `maxAgeSeconds` (else `authentication_too_old`, which a
 * new sign-in cures; a missing role is said first, because no sign-in cures that).
 */
export function decide(subject: DecisionSubject, action: string, resource: DecisionResource, freshness?: SignInFreshness): DecisionOutcome {
  if (!isAction(action)) return { decision: 'deny', reason: 'unknown_action' };
  const definition = actionDefinition(action);
  if (subject.kind !== 'human') {
    if (definition.formal || !definition.keysAllowed) return { decision: 'deny', reason: 'human_required' };
    if (subject.kind === 'platform_key') return { decision: 'allow', reason: 'platform_key' };
    if (!definition.organizationScoped) return { decision: 'allow', reason: 'valid_key' };
    if (!resource.organizationId) return { decision: 'deny', reason: 'organization_required' };
    if (subject.organizationId !== resource.organizationId) return { decision: 'deny', reason: 'organization_mismatch' };
    return { decision: 'allow', reason: 'organization_key' };
  }
  if (!definition.organizationScoped) return { decision: 'allow', reason: 'signed_in_user' };
  if (!resource.organizationId) return { decision: 'deny', reason: 'organization_required' };
  const granted = subject.roles.find(
    (binding) =>
      definition.roles.includes(binding.role) && (binding.organizationId === null || binding.organizationId === resource.organizationId),
  );
  if (!granted) return { decision: 'deny', reason: 'role_required' };
  if (definition.formal && freshness && !signedInWithin(subject.authTime, freshness)) {
    return { decision: 'deny', reason: 'authentication_too_old', maxAge: freshness.maxAgeSeconds };
  }
  return { decision: 'allow', reason: `role:${granted.role}` };
}

function signedInWithin(authTime: number | undefined, { maxAgeSeconds, nowSeconds }: SignInFreshness): boolean {
  return authTime !== undefined && nowSeconds - authTime <= maxAgeSeconds;
}

export function subjectDto(subject: DecisionSubject): DecisionSubjectDto {
  switch (subject.kind) {
    case 'human':
      return { kind: 'human', id: subject.uid };
    case 'platform_key':
      return { kind: 'platform_key', id: subject.keyId, keyPrefix: subject.keyPrefix, organizationId: null };
    case 'app_key':
      return { kind: 'app_key', id: subject.keyId, keyPrefix: subject.keyPrefix, organizationId: subject.organizationId };
  }
}
