import type { FieldError } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

// The decision endpoint's refusals (codes and categories declared in IDENTITY_ERRORS); a decision
// itself is never an error: a deny is an answer.

export function decisionRequestInvalid(errors: FieldError[]): DomainError {
  return DomainError.of('decisions.request_invalid', 'The request is invalid.', { errors });
}
