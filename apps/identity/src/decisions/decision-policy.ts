import { actionDefinition, isAction, type DecisionSubjectDto, type DenialReason } from '@stdreg/contracts';
import type { DecisionSubject } from '../subjects/decision-subject';

export interface DecisionResource {
  organizationId?: string | undefined;
  projectId?: string | undefined;
}

export type DecisionOutcome = { decision: 'allow'; reason: string } | { decision: 'deny'; reason: DenialReason };

export type { DenialReason } from '@stdreg/contracts';

/**
 * The catalogue applied to a resolved subject. Formal writes need a human; keys act only for
 * non-formal actions, app keys only in their own organization; humans need a role the action
 * lists, bound in the resource's organization or globally. An action outside any organization
 * (a tool call) needs only a valid credential.
 */
export function decide(subject: DecisionSubject, action: string, resource: DecisionResource): DecisionOutcome {
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
  return granted ? { decision: 'allow', reason: `role:${granted.role}` } : { decision: 'deny', reason: 'role_required' };
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
