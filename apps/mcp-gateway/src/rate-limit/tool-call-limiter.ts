// Token buckets for tool calls, per key and per client address, in this process (see docs/decisions.md).
import { createHash } from 'node:crypto';
import { recordRateLimitRejection } from '@stdreg/server-kit';

export interface LimiterOptions {
  perKeyPerMinute: number;
  perIpPerMinute: number;
  now?: () => number;
}

export type LimitCheck = { ok: true } | { ok: false; retryAfterSeconds: number; limitedBy: 'key' | 'ip' };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const MAX_BUCKETS = 50_000;

export class ToolCallLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;

  constructor(private readonly options: LimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Takes one token from the caller's key bucket (when it has a key) and its address bucket. */
  take(credential: string | null, ip: string): LimitCheck {
    const checks: [string, number, 'key' | 'ip'][] = [[`ip:${ip}`, this.options.perIpPerMinute, 'ip']];
    if (credential) checks.unshift([`key:${createHash('sha256').update(credential).digest('base64url')}`, this.options.perKeyPerMinute, 'key']);
    const buckets = checks.map(([id, perMinute, limitedBy]) => ({ bucket: this.refill(id, perMinute), perMinute, limitedBy }));
    const empty = buckets.find(({ bucket }) => bucket.tokens < 1);
    if (empty) {
      recordRateLimitRejection(`tool-call-${empty.limitedBy}`);
      return { ok: false, limitedBy: empty.limitedBy, retryAfterSeconds: Math.max(1, Math.ceil(((1 - empty.bucket.tokens) * 60) / empty.perMinute)) };
    }
    for (const { bucket } of buckets) bucket.tokens -= 1;
    return { ok: true };
  }

  private refill(id: string, perMinute: number): Bucket {
    const now = this.now();
    let bucket = this.buckets.get(id);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
      bucket = { tokens: perMinute, updatedAt: now };
      this.buckets.set(id, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.updatedAt) * perMinute) / 60_000);
    bucket.updatedAt = now;
    return bucket;
  }
}
