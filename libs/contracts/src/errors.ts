/** Stable, snake_case error codes carried in every problem-details body (`code`). */
export enum ErrorCode {
  ValidationFailed = 'validation_failed',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  RouteNotFound = 'route_not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  PreconditionFailed = 'precondition_failed',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  DomainRuleViolated = 'domain_rule_violated',
  ConfirmationRequired = 'confirmation_required',
  RateLimited = 'rate_limited',
  AuthorizationUnavailable = 'authorization_unavailable',
  ServiceUnavailable = 'service_unavailable',
  InternalError = 'internal_error',
}

export interface FieldError {
  /** Where the problem is: a query parameter name, a body path such as `redirectUris[1]`. */
  field: string;
  message: string;
}

/** RFC 9457 problem details, as every service answers an error. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  requestId?: string;
}

export const PROBLEM_TYPE_BASE = 'https://stdreg.dev/problems/';
