import { ErrorCode } from './errors';
import { IDENTITY_ERRORS } from './identity/identity-errors';
import { STANDARDS_API_ERRORS } from './standards-api-errors';

/**
 * Every domain error code of the platform with its category: the one table a code is declared in, so
 * a code cannot exist without its mapping (and the category's HTTP status is the exhaustive switch in
 * server-kit's domain-error.ts).
 */
export const DOMAIN_ERRORS = { ...IDENTITY_ERRORS, ...STANDARDS_API_ERRORS } as const satisfies Record<string, ErrorCode>;

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

export const DOMAIN_ERROR_CODES = Object.keys(DOMAIN_ERRORS) as DomainErrorCode[];

export function categoryOf(code: DomainErrorCode): ErrorCode {
  return DOMAIN_ERRORS[code];
}
