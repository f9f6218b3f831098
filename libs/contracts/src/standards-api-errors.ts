import { ErrorCode } from './errors';

/** standards-api's domain error codes, feature by feature, each with its category (see DOMAIN_ERRORS). */
export const STANDARDS_API_ERRORS = {
  'registry.not_found': ErrorCode.NotFound,
  'registry.empty': ErrorCode.ServiceUnavailable,
  'registry.version_and_at': ErrorCode.ValidationFailed,
  'registry.changed': ErrorCode.PreconditionFailed,
  'search.no_content': ErrorCode.ServiceUnavailable,
  'database.timed_out': ErrorCode.ServiceUnavailable,
  'authorization.credential_missing': ErrorCode.Unauthenticated,
  'authorization.credential_too_long': ErrorCode.Unauthenticated,
  'authorization.credential_invalid': ErrorCode.Unauthenticated,
  'authorization.organization_missing': ErrorCode.ValidationFailed,
  'authorization.unavailable': ErrorCode.AuthorizationUnavailable,
  'authorization.denied': ErrorCode.Forbidden,
  'authorization.human_required': ErrorCode.Forbidden,
  'authorization.authentication_too_old': ErrorCode.Unauthenticated,
  'idempotency.key_malformed': ErrorCode.ValidationFailed,
  'idempotency.key_reused': ErrorCode.DomainRuleViolated,
  'idempotency.in_progress': ErrorCode.Conflict,
  'idempotency.answer_lost': ErrorCode.Conflict,
  'split_projects.not_found': ErrorCode.NotFound,
  'split_projects.template_unknown': ErrorCode.DomainRuleViolated,
  'split_projects.draft_limit_reached': ErrorCode.Conflict,
  'split_projects.not_a_draft': ErrorCode.Conflict,
  'split_projects.discard_not_yours': ErrorCode.Forbidden,
  'scenarios.not_found': ErrorCode.NotFound,
  'scenarios.revision_not_found': ErrorCode.NotFound,
  'scenarios.rules_broken': ErrorCode.DomainRuleViolated,
  'scenarios.changed': ErrorCode.PreconditionFailed,
  'scenarios.not_changed': ErrorCode.PreconditionFailed,
  'scenarios.patch_not_object': ErrorCode.ValidationFailed,
  'scenarios.currency_mismatch': ErrorCode.DomainRuleViolated,
  'scenarios.limit_reached': ErrorCode.Conflict,
  'scenarios.revision_limit_reached': ErrorCode.Conflict,
  'comparisons.scenario_not_in_project': ErrorCode.NotFound,
  'comparisons.not_comparable': ErrorCode.DomainRuleViolated,
  'rule_versions.already_activated': ErrorCode.Conflict,
  'rule_versions.not_activated': ErrorCode.Conflict,
  'rule_versions.scenario_not_in_project': ErrorCode.NotFound,
  'rule_versions.revision_not_current': ErrorCode.Conflict,
  'rule_versions.not_found': ErrorCode.NotFound,
  'rule_versions.effective_from_in_past': ErrorCode.DomainRuleViolated,
  'rule_versions.effective_from_too_early': ErrorCode.DomainRuleViolated,
  'rule_versions.scenario_changed': ErrorCode.Conflict,
  'rule_versions.effective_from_invalid': ErrorCode.ValidationFailed,
  'rule_versions.cursor_invalid': ErrorCode.ValidationFailed,
  'confirmations.token_not_yours': ErrorCode.Forbidden,
  'confirmations.token_used': ErrorCode.Conflict,
  'confirmations.token_expired': ErrorCode.Conflict,
  'confirmations.token_for_other_request': ErrorCode.Conflict,
  'confirmations.required': ErrorCode.ConfirmationRequired,
  'settlements.run_not_found': ErrorCode.NotFound,
  'settlements.corrected_run_not_in_project': ErrorCode.NotFound,
  'settlements.period_already_settled': ErrorCode.Conflict,
  'settlements.period_settled_meanwhile': ErrorCode.Conflict,
  'settlements.run_already_corrected': ErrorCode.Conflict,
  'settlements.correction_of_other_period': ErrorCode.DomainRuleViolated,
  'settlements.period_not_ended': ErrorCode.DomainRuleViolated,
  'settlements.period_end_invalid': ErrorCode.ValidationFailed,
  'settlements.no_rule_version_in_force': ErrorCode.DomainRuleViolated,
  'settlements.actuals_invalid': ErrorCode.DomainRuleViolated,
  'settlements.changed': ErrorCode.Conflict,
  'settlements.cursor_invalid': ErrorCode.ValidationFailed,
  'ledgers.legal_entity_id_too_long': ErrorCode.ValidationFailed,
  'ledgers.time_range_empty': ErrorCode.ValidationFailed,
} as const satisfies Record<string, ErrorCode>;

export type StandardsApiErrorCode = keyof typeof STANDARDS_API_ERRORS;

/** standards-api's refusals of the caller itself (credential, organization, permission), not of what it asked. */
export type StandardsApiCallerErrorCode = Extract<StandardsApiErrorCode, `authorization.${string}`>;

export function isStandardsApiErrorCode(code: string): code is StandardsApiErrorCode {
  return Object.hasOwn(STANDARDS_API_ERRORS, code);
}

const CALLER_FEATURE = 'authorization.';

/** The test of the type above, beside it: the one place a code's feature is read from its text. */
export function isStandardsApiCallerError(code: StandardsApiErrorCode): code is StandardsApiCallerErrorCode {
  return code.startsWith(CALLER_FEATURE);
}
