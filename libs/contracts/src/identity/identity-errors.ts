import { ErrorCode } from '../errors';

/**
 * identity's domain error codes, feature by feature, each with the category (and so the HTTP status)
 * it falls in. A problem body carries the code as `domainCode` beside the category's `code`.
 */
export const IDENTITY_ERRORS = {
  'keys.credential_missing': ErrorCode.Unauthenticated,
  'keys.credential_invalid': ErrorCode.Unauthenticated,
  'keys.platform_key_required': ErrorCode.Forbidden,
  'keys.not_found': ErrorCode.NotFound,
  'keys.revoked': ErrorCode.Conflict,
  'keys.organization_required': ErrorCode.ValidationFailed,
  'keys.organization_unknown': ErrorCode.DomainRuleViolated,
  'keys.registries_unknown': ErrorCode.DomainRuleViolated,
  'apps.not_found': ErrorCode.NotFound,
  'apps.key_revoked': ErrorCode.Unauthenticated,
  'apps.limit_reached': ErrorCode.Conflict,
  'users.not_found': ErrorCode.NotFound,
  'users.external_id_taken': ErrorCode.Conflict,
  'users.nothing_to_change': ErrorCode.ValidationFailed,
  'waitlist.not_found': ErrorCode.NotFound,
  'waitlist.already_decided': ErrorCode.Conflict,
  'organizations.not_found': ErrorCode.NotFound,
  'organizations.not_own': ErrorCode.Forbidden,
  'role_bindings.organization_unknown': ErrorCode.DomainRuleViolated,
  'role_bindings.already_held': ErrorCode.Conflict,
  'role_bindings.not_found': ErrorCode.NotFound,
  'passwords.no_unified_user': ErrorCode.NotFound,
  'passwords.user_shared_with_other_apps': ErrorCode.Forbidden,
  'passwords.login_email_taken': ErrorCode.Conflict,
  'unified_users.not_found': ErrorCode.NotFound,
  'unified_users.being_merged': ErrorCode.Conflict,
  'unified_users.registry_not_found': ErrorCode.NotFound,
  'unified_users.app_already_linked': ErrorCode.Conflict,
  'unified_users.app_not_linked': ErrorCode.NotFound,
  'merge.into_itself': ErrorCode.ValidationFailed,
  'merge.already_merged': ErrorCode.Conflict,
  'merge.into_merged_user': ErrorCode.Conflict,
  'merge.not_found': ErrorCode.NotFound,
  'merge.already_undone': ErrorCode.Conflict,
  'merge.email_taken_since': ErrorCode.Conflict,
  'merge.survivor_merged_since': ErrorCode.Conflict,
  'merge.later_merge_removed_duplicates': ErrorCode.Conflict,
  'decisions.service_credential_required': ErrorCode.Unauthenticated,
  'decisions.request_invalid': ErrorCode.ValidationFailed,
  'rate_limits.unavailable': ErrorCode.ServiceUnavailable,
  'rate_limits.exceeded': ErrorCode.RateLimited,
} as const satisfies Record<string, ErrorCode>;

export type IdentityErrorCode = keyof typeof IDENTITY_ERRORS;
