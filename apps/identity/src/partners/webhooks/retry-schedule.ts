/**
 * After the n-th failed attempt, the next one comes this many seconds later (±20 % jitter): ten
 * attempts over about three days (75.6 hours), then the delivery has failed.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000, 86400, 86400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** When to try again after `attempts` failed attempts, or null when they are used up. */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * 1000 * (0.8 + 0.4 * random())));
}
