import type { ReadinessCheck } from '../health/health.module';
import { RedisRateLimitStore } from './redis-rate-limit.store';
import { MemoryRateLimitStore, type RateLimitStore } from './token-bucket';

export * from './token-bucket';
export * from './redis-rate-limit.store';
export * from './client-address';

/** The injection token of a service's rate-limit store. */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** Buckets shared by every replica through Redis when `redisUrl` is set; in this process otherwise (one replica). */
export function openRateLimitStore(redisUrl: string | undefined): RateLimitStore {
  return redisUrl ? new RedisRateLimitStore(redisUrl) : new MemoryRateLimitStore();
}

/** A service whose buckets are in Redis is not ready while Redis is away (its limited calls would all be refused). */
export function rateLimitReadinessChecks(store: RateLimitStore): ReadinessCheck[] {
  return store instanceof RedisRateLimitStore ? [{ name: 'redis', check: () => store.ping() }] : [];
}
