import { DomainError } from '@stdreg/server-kit';

// The event handover's refusals (codes and categories declared in IDENTITY_ERRORS).

export function handoverFromUnknownService(service: string): DomainError {
  return DomainError.of('events.handover_not_allowed', `Service ${service} does not hand over partner events.`);
}
