/**
 * After the n-th failed attempt, the next one comes this many seconds later (±20 % jitter), counted from
 * the end of the failed attempt: ten attempts over about three days (75.6 hours), then the delivery has failed.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000, 86400, 86400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** The longest a receiver's `Retry-After` (on a 429 or 503) holds a delivery back. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/** The answers after which a receiver asked us to wait: their `Retry-After` is honoured. */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * When to try again after `attempts` failed attempts, the last of which ended at `endedAt`, or null when
 * they are used up. A receiver's `Retry-After` (seconds, capped) is a floor under the scheduled delay.
 */
export function nextAttemptAt(
  attempts: number,
  endedAt: Date,
  random: () => number = Math.random,
  retryAfterSeconds: number | null = null,
): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  if (delay === undefined) return null;
  const scheduledMs = Math.round(delay * 1000 * (0.8 + 0.4 * random()));
  const askedMs = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return new Date(endedAt.getTime() + Math.max(scheduledMs, askedMs));
}
