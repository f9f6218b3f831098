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
  /** More tool calls in one request than the smallest bucket holds when full: no wait would let it through. */
  | { ok: false; limitedBy: 'batch'; most: number }
  /** The store could not be reached: the call is refused, never let through unlimited. */
  | { ok: false; limitedBy: 'unavailable'; retryAfterSeconds: 1 };

export class ToolCallLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly options: LimiterOptions,
  ) {}

  /**
   * Takes `calls` tokens from the caller's key bucket (when it has a key) and its address bucket, or none
   * from either: a batch is let through whole or refused whole, and a refused one spends nothing.
   */
  async take(credential: string | null, ip: string, calls = 1): Promise<LimitCheck> {
    const buckets: [BucketSpec, LimitedBy][] = [[this.bucket(`ip:${clientAddressBucket(ip)}`, this.options.perIpPerMinute), 'ip']];
    if (credential) buckets.unshift([this.bucket(`key:${digest(credential)}`, this.options.perKeyPerMinute), 'key']);
    return this.takeFrom(buckets, calls);
  }

  /**
   * Takes `calls` tokens from the bucket of the agent (and the person it acts for) that identity admitted a
   * token of. Each token also has its own bucket (`take`), but a refreshed token is a new string: this one
   * is what a refresh cannot start afresh.
   */
  async takeForAgent(subject: DecisionSubjectDto, calls = 1): Promise<LimitCheck> {
    const holder = [subject.kind, subject.id, subject.supervisorId ?? ''].join('\n');
    return this.takeFrom([[this.bucket(`agent:${digest(holder)}`, this.options.perKeyPerMinute), 'agent']], calls);
  }

  private async takeFrom(buckets: [BucketSpec, LimitedBy][], calls: number): Promise<LimitCheck> {
    const most = Math.min(...buckets.map(([spec]) => spec.capacity));
    if (calls > most) {
      recordRateLimitRejection('tool-call-batch');
      return { ok: false, limitedBy: 'batch', most };
    }
    let result;
    try {
      result = await this.store.take(
        buckets.map(([spec]) => spec),
        calls,
      );
    } catch {
      recordRateLimitRejection('tool-call-unavailable');
      return { ok: false, limitedBy: 'unavailable', retryAfterSeconds: 1 };
    }
    if (result.allowed) return { ok: true };
    const limitedBy = buckets[result.buckets.findIndex((bucket) => bucket.tokens < calls)]![1];
    recordRateLimitRejection(`tool-call-${limitedBy}`);
    return { ok: false, limitedBy, retryAfterSeconds: retryAfterSeconds(result, calls) };
  }

  private bucket(id: string, perMinuteCount: number): BucketSpec {
    return { key: `${this.options.keyPrefix}tc:${id}`, capacity: perMinuteCount, perMillisecond: perMinute(perMinuteCount) };
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
