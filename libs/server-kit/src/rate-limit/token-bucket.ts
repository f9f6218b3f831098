/** One token bucket: `capacity` tokens at most, refilled continuously at `perMillisecond`. */
export interface BucketSpec {
  key: string;
  capacity: number;
  perMillisecond: number;
}

export interface BucketState {
  spec: BucketSpec;
  /** Tokens left after this request (fractional). */
  tokens: number;
}

export interface TakeResult {
  allowed: boolean;
  buckets: BucketState[];
}

/** Takes `count` tokens (one unless said) from every bucket at once, or none when any of them holds fewer. */
export interface RateLimitStore {
  take(buckets: BucketSpec[], count?: number): Promise<TakeResult>;
  close(): Promise<void>;
}

export function perMinute(count: number): number {
  return count / 60_000;
}

/** Whole seconds until every refused bucket holds `count` tokens again; never 0. */
export function retryAfterSeconds(result: TakeResult, count = 1): number {
  const waits = result.buckets.filter((b) => b.tokens < count).map((b) => (count - b.tokens) / b.spec.perMillisecond);
  return Math.max(1, Math.ceil(Math.max(0, ...waits) / 1000));
}

/** The bucket that binds: the one with the fewest whole tokens left. */
export function bindingBucket(result: TakeResult): BucketState {
  return result.buckets.reduce((low, b) => (Math.floor(b.tokens) < Math.floor(low.tokens) ? b : low));
}

interface StoredBucket {
  tokens: number;
  at: number;
  capacity: number;
  perMillisecond: number;
}

export interface MemoryRateLimitStoreOptions {
  now?: () => number;
  /** How many buckets the store may hold before it forgets those that have filled up again. */
  sweepFrom?: number;
}

/**
 * The same algorithm in process, for the embedded default (one replica). Like the Redis store's
 * expiry, it forgets a bucket once it is full again (a full bucket and a missing one take the same),
 * so memory follows the callers of the last refill period, not every caller ever seen.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, StoredBucket>();
  private readonly now: () => number;
  private readonly sweepFrom: number;
  private sweepAt: number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweepFrom = options.sweepFrom ?? 10_000;
    this.sweepAt = this.sweepFrom;
  }

  /** Buckets held now. */
  get size(): number {
    return this.buckets.size;
  }

  async take(specs: BucketSpec[], count = 1): Promise<TakeResult> {
    const at = this.now();
    const states = specs.map((spec) => ({ spec, tokens: refilled(this.buckets.get(spec.key), spec.capacity, spec.perMillisecond, at) }));
    const allowed = states.every((s) => s.tokens >= count);
    for (const state of states) {
      if (allowed) state.tokens -= count;
      this.buckets.set(state.spec.key, {
        tokens: state.tokens,
        at,
        capacity: state.spec.capacity,
        perMillisecond: state.spec.perMillisecond,
      });
    }
    if (this.buckets.size >= this.sweepAt) this.sweep(at);
    return { allowed, buckets: states };
  }

  async close(): Promise<void> {}

  // Doubling the threshold after each sweep keeps the cost per take constant when most buckets are in use.
  private sweep(at: number): void {
    for (const [key, bucket] of this.buckets) {
      if (refilled(bucket, bucket.capacity, bucket.perMillisecond, at) >= bucket.capacity) this.buckets.delete(key);
    }
    this.sweepAt = Math.max(this.sweepFrom, this.buckets.size * 2);
  }
}

function refilled(stored: StoredBucket | undefined, capacity: number, perMillisecond: number, at: number): number {
  return stored ? Math.min(capacity, stored.tokens + Math.max(0, at - stored.at) * perMillisecond) : capacity;
}
