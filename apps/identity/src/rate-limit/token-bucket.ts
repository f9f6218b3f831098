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

/** Takes one token from every bucket at once, or from none when any of them is empty. */
export interface RateLimitStore {
  take(buckets: BucketSpec[]): Promise<TakeResult>;
  close(): Promise<void>;
}

export function perMinute(count: number): number {
  return count / 60_000;
}

/** Whole seconds until the emptiest refused bucket has a token again; never 0. */
export function retryAfterSeconds(result: TakeResult): number {
  const waits = result.buckets
    .filter((b) => b.tokens < 1)
    .map((b) => (1 - b.tokens) / b.spec.perMillisecond);
  return Math.max(1, Math.ceil(Math.max(0, ...waits) / 1000));
}

/** The bucket that binds: the one with the fewest whole tokens left. */
export function bindingBucket(result: TakeResult): BucketState {
  return result.buckets.reduce((low, b) => (Math.floor(b.tokens) < Math.floor(low.tokens) ? b : low));
}

/** The same algorithm in process, for the embedded default (one replica). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(specs: BucketSpec[]): Promise<TakeResult> {
    const at = this.now();
    const states = specs.map((spec) => {
      const stored = this.buckets.get(spec.key);
      const tokens = stored ? Math.min(spec.capacity, stored.tokens + (at - stored.at) * spec.perMillisecond) : spec.capacity;
      return { spec, tokens };
    });
    const allowed = states.every((s) => s.tokens >= 1);
    for (const state of states) {
      if (allowed) state.tokens -= 1;
      this.buckets.set(state.spec.key, { tokens: state.tokens, at });
    }
    return { allowed, buckets: states };
  }

  async close(): Promise<void> {}
}
