import { categoryOf, type DomainErrorCode, ErrorCode, type FieldError } from '@stdreg/contracts';

/**
 * An error a service raises on purpose; its code decides the HTTP status and its detail is shown.
 * `extensions` are extra members of the problem body (RFC 9457 §3.2); they never replace a standard one.
 */
export class DomainError extends Error {
  /** The precise reason within the category, when the error was raised with one (DomainError.of). */
  domainCode?: DomainErrorCode;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    readonly extensions?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'DomainError';
  }

  /** An error named by its domain code; the category (and HTTP status) follows from DOMAIN_ERRORS. */
  static of(
    domainCode: DomainErrorCode,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ): DomainError {
    const error = new DomainError(categoryOf(domainCode), detail, options.errors, options.headers, options.extensions);
    error.domainCode = domainCode;
    return error;
  }
}

/** The one place where error codes become HTTP statuses; a new code that is not mapped fails to compile. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.ValidationFailed:
      return 400;
    case ErrorCode.Unauthenticated:
      return 401;
    case ErrorCode.Forbidden:
      return 403;
    case ErrorCode.NotFound:
    case ErrorCode.RouteNotFound:
      return 404;
    case ErrorCode.MethodNotAllowed:
      return 405;
    case ErrorCode.RequestTimeout:
      return 408;
    case ErrorCode.Conflict:
      return 409;
    case ErrorCode.PreconditionFailed:
      return 412;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.UnsupportedMediaType:
      return 415;
    case ErrorCode.HeadersTooLarge:
      return 431;
    case ErrorCode.DomainRuleViolated:
      return 422;
    case ErrorCode.ConfirmationRequired:
      return 428;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.InternalError:
      return 500;
    case ErrorCode.AuthorizationUnavailable:
    case ErrorCode.ServiceUnavailable:
      return 503;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped error code ${String(unmapped)}`);
    }
  }
}

const TITLES: Record<ErrorCode, string> = {
  [ErrorCode.ValidationFailed]: 'Invalid request',
  [ErrorCode.Unauthenticated]: 'Authentication required',
  [ErrorCode.Forbidden]: 'Not allowed',
  [ErrorCode.NotFound]: 'Not found',
  [ErrorCode.RouteNotFound]: 'No such route',
  [ErrorCode.MethodNotAllowed]: 'Method not allowed',
  [ErrorCode.Conflict]: 'Conflict',
  [ErrorCode.PreconditionFailed]: 'Precondition failed',
  [ErrorCode.PayloadTooLarge]: 'Payload too large',
  [ErrorCode.HeadersTooLarge]: 'Request header fields too large',
  [ErrorCode.RequestTimeout]: 'Request timeout',
  [ErrorCode.UnsupportedMediaType]: 'Unsupported media type',
  [ErrorCode.DomainRuleViolated]: 'Domain rule violated',
  [ErrorCode.ConfirmationRequired]: 'Confirmation required',
  [ErrorCode.RateLimited]: 'Too many requests',
  [ErrorCode.AuthorizationUnavailable]: 'Authorization unavailable',
  [ErrorCode.ServiceUnavailable]: 'Service unavailable',
  [ErrorCode.InternalError]: 'Internal error',
};

export function titleFor(code: ErrorCode): string {
  return TITLES[code];
}
