import { actionDefinition, agentScopeForAction, isAction, type DecisionSubjectDto, type DenialReason } from '@stdreg/contracts';
import type { DecisionSubject, EffectiveRoleBinding } from '../access/callers/decision-subject';

export interface DecisionResource {
  organizationId?: string | undefined;
  projectId?: string | undefined;
  /** Agent scopes the operation needs beyond the action's own (a tool's scope, named by the gateway). */
  scopes?: readonly string[] | undefined;
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
 * The catalogue applied to a resolved subject. Formal writes need a human, never an agent (whatever the
 * roles of the person it acts for: `agent_delegated`); keys act only for non-formal actions, app keys and
 * agents' keys only in their own organization; humans need a role the action lists, bound in the
 * resource's organization or globally, and an agent acting through a token needs the same role of its
 * person and the scopes the operation needs. An action outside any organization (a tool call) needs only
 * a valid credential (and, for an agent's token, the tool's scope). With `freshness`, a formal write the
 * person's roles allow also needs a sign-in no older than its `maxAgeSeconds` (else
 * `authentication_too_old`, which a new sign-in cures; a missing role is said first, because no sign-in
 * cures that).
 */
export function decide(subject: DecisionSubject, action: string, resource: DecisionResource, freshness?: SignInFreshness): DecisionOutcome {
  if (!isAction(action)) return { decision: 'deny', reason: 'unknown_action' };
  const definition = actionDefinition(action);
  if (subject.kind === 'agent') {
    if (definition.formal) return { decision: 'deny', reason: 'agent_delegated' };
    if (subject.via === 'key') return decideForKey(subject.organizationId, definition, resource, 'organization_key');
    const needed = [agentScopeForAction(action), ...(resource.scopes ?? [])].filter((scope) => scope !== null);
    if (!needed.every((scope) => subject.scopes.includes(scope))) return { decision: 'deny', reason: 'insufficient_scope' };
    if (!definition.organizationScoped) return { decision: 'allow', reason: 'agent_for_signed_in_user' };
    return decideByRole(subject.roles, definition.roles, resource, 'agent_for_role');
  }
  if (subject.kind !== 'human') {
    if (definition.formal || !definition.keysAllowed) return { decision: 'deny', reason: 'human_required' };
    if (subject.kind === 'platform_key') return { decision: 'allow', reason: 'platform_key' };
    return decideForKey(subject.organizationId, definition, resource, 'organization_key');
  }
  if (!definition.organizationScoped) return { decision: 'allow', reason: 'signed_in_user' };
  const byRole = decideByRole(subject.roles, definition.roles, resource, 'role');
  if (byRole.decision === 'deny') return byRole;
  if (definition.formal && freshness && !signedInWithin(subject.authTime, freshness)) {
    return { decision: 'deny', reason: 'authentication_too_old', maxAge: freshness.maxAgeSeconds };
  }
  return byRole;
}

function decideForKey(
  keyOrganizationId: string | null,
  definition: { organizationScoped: boolean; keysAllowed: boolean },
  resource: DecisionResource,
  allowReason: string,
): DecisionOutcome {
  if (!definition.keysAllowed) return { decision: 'deny', reason: 'human_required' };
  if (!definition.organizationScoped) return { decision: 'allow', reason: 'valid_key' };
  if (!resource.organizationId) return { decision: 'deny', reason: 'organization_required' };
  if (keyOrganizationId !== resource.organizationId) return { decision: 'deny', reason: 'organization_mismatch' };
  return { decision: 'allow', reason: allowReason };
}

function decideByRole(
  roles: readonly EffectiveRoleBinding[],
  allowedRoles: readonly string[],
  resource: DecisionResource,
  allowPrefix: string,
): DecisionOutcome {
  if (!resource.organizationId) return { decision: 'deny', reason: 'organization_required' };
  const granted = roles.find(
    (binding) =>
      allowedRoles.includes(binding.role) && (binding.organizationId === null || binding.organizationId === resource.organizationId),
  );
  if (!granted) return { decision: 'deny', reason: 'role_required' };
  return { decision: 'allow', reason: `${allowPrefix}:${granted.role}` };
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
    case 'agent':
      return subject.via === 'token'
        ? {
            kind: 'agent',
            id: subject.clientId,
            supervisorId: subject.supervisorUid,
            scopes: [...subject.scopes],
            organizationId: onlyOrganizationOf(subject.roles),
          }
        : {
            kind: 'agent',
            id: subject.keyId,
            keyPrefix: subject.keyPrefix,
            organizationId: subject.organizationId,
            supervisorId: subject.supervisorUid,
          };
  }
}

/** The one organization a person holds roles in, where the agent acts when it names none; null for none, several or a global role. */
function onlyOrganizationOf(roles: readonly EffectiveRoleBinding[]): string | null {
  const organizations = new Set(roles.map((binding) => binding.organizationId));
  const [only] = organizations;
  return organizations.size === 1 && only !== undefined ? only : null;
}
