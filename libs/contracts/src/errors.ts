import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
  HeadersTooLarge = 'headers_too_large',
  RequestTimeout = 'request_timeout',
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
  /** The precise reason within the category, e.g. `merge.not_found` (see DOMAIN_ERRORS). */
  domainCode?: string;
  errors?: FieldError[];
  requestId?: string;
}

export const PROBLEM_TYPE_BASE = 'https://stdreg.dev/problems/';

export class FieldErrorDto implements FieldError {
  @ApiProperty({ example: 'limit' }) field!: string;
  @ApiProperty({ example: 'limit must not be greater than 100' }) message!: string;
}

export class ProblemDetailsDto implements ProblemDetails {
  @ApiProperty({ example: 'https://stdreg.dev/problems/not_found' }) type!: string;
  @ApiProperty({ example: 'Not found' }) title!: string;
  @ApiProperty({ example: 404 }) status!: number;
  @ApiProperty({ example: 'Standards block XYZ-1 does not exist in the registry.' }) detail!: string;
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode' }) code!: ErrorCode;
  @ApiPropertyOptional({
    description:
      'The precise reason within the category, `<feature>.<reason>`; the codes each service answers are listed in its OpenAPI description',
    example: 'merge.not_found',
  })
  domainCode?: string;
  @ApiPropertyOptional({ type: () => [FieldErrorDto] }) errors?: FieldErrorDto[];
  @ApiPropertyOptional() requestId?: string;
}
