import { DomainError } from '@stdreg/server-kit';

// The subject-change stream's refusals (codes and categories declared in IDENTITY_ERRORS).

/** This replica cannot promise to pass on every change (Redis away): the service keeps no answers meanwhile. */
export function subjectChangesUnavailable(): DomainError {
  return DomainError.of('subject_changes.unavailable', 'Subject changes cannot be followed here now; try again shortly.', {
    headers: { 'Retry-After': '1' },
  });
}
