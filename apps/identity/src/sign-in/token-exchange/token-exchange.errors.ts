import { DomainError } from '@stdreg/server-kit';

// The token exchange's refusals (codes and categories declared in IDENTITY_ERRORS).

export function subjectTokenInvalid(): DomainError {
  return DomainError.of(
    'token_exchange.subject_token_invalid',
    'The subject token is not a live agent token for the tool gateway (expired, revoked, another audience, or its client or grant is gone).',
  );
}

export function targetInvalid(resource: string): DomainError {
  return DomainError.of('token_exchange.target_invalid', `Tokens are exchanged for the standards API only, not for ${resource}.`);
}

export function scopeWider(asked: string[], held: string[]): DomainError {
  return DomainError.of(
    'token_exchange.scope_wider',
    `The scope asked for (${asked.join(' ')}) is wider than the subject token's (${held.join(' ') || 'none'}).`,
  );
}
