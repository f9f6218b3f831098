import { DomainError } from '@stdreg/server-kit';

// The waitlist's refusals (codes and categories declared in IDENTITY_ERRORS).

export function requestNotFound(id: string): DomainError {
  return DomainError.of('waitlist.not_found', `Waitlist request ${id} does not exist.`);
}

export function alreadyDecided(id: string, status: string): DomainError {
  return DomainError.of('waitlist.already_decided', `Waitlist request ${id} was already ${status}.`);
}
