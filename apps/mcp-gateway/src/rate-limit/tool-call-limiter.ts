// Token buckets for tool calls, per key and per client address, in the shared rate-limit store
// (Redis when configured, so every replica counts against the same buckets; see docs/decisions.md).
import { createHash } from 'node:crypto';
import type { DecisionSubjectDto } from '@stdreg/contracts';
import { recordRateLimitRejection } from '@stdreg/server-kit';
import { clientAddressBucket, perMinute, retryAfterSeconds, type BucketSpec, type RateLimitStore } from '@stdreg/server-kit/rate-limit';

export interface LimiterOptions {
  perKeyPerMinute: number;
  perIpPerMinute: number;
  /** Prefix of the bucket keys in the store. */
  keyPrefix: string;
}

export type LimitedBy = 'key' | 'ip' | 'agent';

export type LimitCheck =
  | { ok: true }
  | { ok: false; limitedBy: LimitedBy; retryAfterSeconds: number }
  /** The store could not be reached: the call is refused, never let through unlimited. */
  | { ok: false; limitedBy: 'unavailable'; retryAfterSeconds: 1 };

export class ToolCallLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly options: LimiterOptions,
  ) {}

  /** Takes a token from the caller's key bucket (when it has a key) and its address bucket, or none from either. */
  async take(credential: string | null, ip: string): Promise<LimitCheck> {
    const buckets: [BucketSpec, LimitedBy][] = [[this.bucket(`ip:${clientAddressBucket(ip)}`, this.options.perIpPerMinute), 'ip']];
    if (credential) buckets.unshift([this.bucket(`key:${digest(credential)}`, this.options.perKeyPerMinute), 'key']);
    return this.takeFrom(buckets);
  }

  /**
   * Takes a token from the bucket of the agent (and the person it acts for) that identity admitted a
   * token of. Each token also has its own bucket (`take`), but a refreshed token is a new string: this one
   * is what a refresh cannot start afresh.
   */
  async takeForAgent(subject: DecisionSubjectDto): Promise<LimitCheck> {
    const holder = [subject.kind, subject.id, subject.supervisorId ?? ''].join('\n');
    return this.takeFrom([[this.bucket(`agent:${digest(holder)}`, this.options.perKeyPerMinute), 'agent']]);
  }

  private async takeFrom(buckets: [BucketSpec, LimitedBy][]): Promise<LimitCheck> {
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

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
