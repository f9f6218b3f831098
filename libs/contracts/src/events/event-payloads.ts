import type { PartnerEventType } from './event-types';

// Payloads carry identifiers and facts the receiving organization can already read through the APIs;
// never a secret, a password, a key or a person's email or name.

export interface SplitProjectCreatedPayload {
  projectId: string;
  name: string;
  currency: string;
  templateVersion: string;
  scenarioId: string;
}
/** A draft discarded: from now on the project is not found, listed or counted (the event's actor discarded it). */
export interface SplitProjectDiscardedPayload {
  projectId: string;
  discardedAt: string;
}
export interface ScenarioRevisedPayload {
  projectId: string;
  scenarioId: string;
  revision: number;
}
export interface ScenarioBranchedPayload {
  projectId: string;
  scenarioId: string;
  fromScenarioId: string;
  fromRevision: number;
}
export interface RuleVersionPayload {
  projectId: string;
  version: number;
  scenarioId: string;
  scenarioRevision: number;
  effectiveFrom: string;
  rulesDigest: string;
}
export interface SettlementRunPayload {
  projectId: string;
  settlementRunId: string;
  periodId: string;
  currency: string;
  distributableAmount: string;
  ruleVersion: number;
  /** For a correction: the run it corrects. */
  correctsRunId?: string;
}
export interface AppRegisteredPayload {
  registryId: string;
  name: string;
  type: string;
  clientId: string;
  redirectUris: string[];
}
export interface AppDeletedPayload {
  registryId: string;
}
export interface UsersSyncedPayload {
  registryId: string;
  applied: boolean;
  records: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: number;
}
export interface UserMergePayload {
  mergeId: string;
  survivorUid: string;
  mergedUid: string;
}
export interface KeyRevokedPayload {
  keyId: string;
  keyPrefix: string;
}
export interface RolePayload {
  roleBindingId: string;
  uid: string;
  role: string;
}
export interface EndpointDisabledPayload {
  endpointId: string;
  url: string;
  reason: string;
  lastDeliveryId: string;
}
export interface WebhookTestPayload {
  endpointId: string;
  message: string;
}

export interface PartnerEventPayloads {
  'split_project.created': SplitProjectCreatedPayload;
  'split_project.discarded': SplitProjectDiscardedPayload;
  'scenario.revised': ScenarioRevisedPayload;
  'scenario.branched': ScenarioBranchedPayload;
  'rule_version.activated': RuleVersionPayload;
  'rule_version.created': RuleVersionPayload;
  'settlement_run.posted': SettlementRunPayload;
  'settlement_run.corrected': SettlementRunPayload;
  'app.registered': AppRegisteredPayload;
  'app.deleted': AppDeletedPayload;
  'users.synced': UsersSyncedPayload;
  'user.merged': UserMergePayload;
  'user.unmerged': UserMergePayload;
  'key.revoked': KeyRevokedPayload;
  'role.granted': RolePayload;
  'role.revoked': RolePayload;
  'endpoint.disabled': EndpointDisabledPayload;
  'webhook.test': WebhookTestPayload;
}

/** Every type has a payload (and no payload lacks a type). */
type Exhaustive<T extends Record<PartnerEventType, unknown>> = T;
export type CheckedPayloads = Exhaustive<PartnerEventPayloads>;
