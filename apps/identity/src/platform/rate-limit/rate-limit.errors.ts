import { DomainError } from '@stdreg/server-kit';

// The rate limits' refusals (codes and categories declared in IDENTITY_ERRORS).

/** The store cannot be reached: refused rather than let through unlimited. */
export function rateLimiterUnavailable(): DomainError {
  return DomainError.of('rate_limits.unavailable', 'The rate limiter is unavailable; try again shortly.', {
    headers: { 'Retry-After': '1' },
  });
}

export function rateLimitExceeded(headers: Record<string, string>, retryAfterSeconds: number): DomainError {
  return DomainError.of('rate_limits.exceeded', 'Rate limit exceeded; retry after the time given in Retry-After.', {
    headers: { ...headers, 'Retry-After': String(retryAfterSeconds) },
  });
}
