import { DomainError } from '@stdreg/server-kit';

export const keyMalformed = () =>
  DomainError.of('idempotency.key_malformed', 'The Idempotency-Key header is malformed.', {
    errors: [{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1-200 printable characters without spaces' }],
  });

export const keyReused = () =>
  DomainError.of('idempotency.key_reused', 'This Idempotency-Key was used with another request body.', {
    errors: [{ field: 'Idempotency-Key', message: 'use a new key for a different request' }],
  });

export const answerLost = () =>
  DomainError.of(
    'idempotency.answer_lost',
    'A request with this Idempotency-Key was done, but its answer was not kept (it was cut short after its write); read what it wrote instead of retrying.',
  );

export const inProgress = () => DomainError.of('idempotency.in_progress', 'A request with this Idempotency-Key is still in progress.');
