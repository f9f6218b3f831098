// Token buckets for tool calls, per key and per client address, in the shared rate-limit store
// (Redis when configured, so every replica counts against the same buckets; see docs/decisions.md).
import { createHash } from 'node:crypto';
import { recordRateLimitRejection } from '@stdreg/server-kit';
import { perMinute, retryAfterSeconds, type BucketSpec, type RateLimitStore } from '@stdreg/server-kit/rate-limit';

export interface LimiterOptions {
  perKeyPerMinute: number;
  perIpPerMinute: number;
  /** Prefix of the bucket keys in the store. */
  keyPrefix: string;
}

export type LimitCheck =
  | { ok: true }
  | { ok: false; limitedBy: 'key' | 'ip'; retryAfterSeconds: number }
  /** The store could not be reached: the call is refused, never let through unlimited. */
  | { ok: false; limitedBy: 'unavailable'; retryAfterSeconds: 1 };

export class ToolCallLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly options: LimiterOptions,
  ) {}

  /** Takes one token from the caller's key bucket (when it has a key) and its address bucket, or from neither. */
  async take(credential: string | null, ip: string): Promise<LimitCheck> {
    const buckets: [BucketSpec, 'key' | 'ip'][] = [[this.bucket(`ip:${ip}`, this.options.perIpPerMinute), 'ip']];
    if (credential)
      buckets.unshift([
        this.bucket(`key:${createHash('sha256').update(credential).digest('base64url')}`, this.options.perKeyPerMinute),
        'key',
      ]);
    let result;
    try {
      result = await this.store.take(buckets.map(([spec]) => spec));
    } catch {
      recordRateLimitRejection('tool-call-unavailable');
      return { ok: false, limitedBy: 'unavailable', retryAfterSeconds: 1 };
    }
    if (result.allowed) return { ok: true };
    const limitedBy = buckets[result.buckets.findIndex((bucket) => bucket.tokens < 1)]![1];
    recordRateLimitRejection(`tool-call-${limitedBy}`);
    return { ok: false, limitedBy, retryAfterSeconds: retryAfterSeconds(result) };
  }

  private bucket(id: string, perMinuteCount: number): BucketSpec {
    return { key: `${this.options.keyPrefix}tc:${id}`, capacity: perMinuteCount, perMillisecond: perMinute(perMinuteCount) };
  }
}
