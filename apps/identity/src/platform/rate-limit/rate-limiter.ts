import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Response } from 'express';
import { KeyClass } from '@stdreg/contracts';
import { recordRateLimitRejection } from '@stdreg/server-kit';
import { IdentityConfig } from '../config/identity.config';
import {
  bindingBucket,
  clientAddressBucket,
  perMinute,
  RATE_LIMIT_STORE,
  retryAfterSeconds,
  type BucketSpec,
  type RateLimitStore,
} from '@stdreg/server-kit/rate-limit';
import { rateLimitExceeded, rateLimiterUnavailable } from './rate-limit.errors';

const WRITE_METHODS = new Set(['POST', 'DELETE']);

/**
 * Applies the per-key buckets (SPEC.md section 8) and the per-IP waitlist and sign-in buckets; sets the
 * X-RateLimit headers; refuses with 429 when a bucket is empty and with 503 when the store is
 * unreachable, never letting a request through unlimited.
 */
/** What the per-key limit needs of a calling key. */
export interface RateLimitedKey {
  keyId: string;
  keyClass: KeyClass;
}

@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  async limitKey(caller: RateLimitedKey, method: string, response: Response): Promise<void> {
    await this.limit(this.bucketsFor(caller, method), response, 'key');
  }

  async limitWaitlist(clientIp: string, response: Response): Promise<void> {
    const perHour = this.config.RATE_LIMIT_WAITLIST_PER_HOUR;
    await this.limit(
      [{ key: this.addressKey(clientIp, 'waitlist'), capacity: perHour, perMillisecond: perHour / 3_600_000 }],
      response,
      'waitlist',
    );
  }

  /** Password checks per client IP, whatever the account: the per-account lockout does not stop one client trying many accounts. */
  async limitSigninAttempt(clientIp: string, response: Response): Promise<void> {
    const attempts = this.config.SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE;
    await this.limit(
      [{ key: this.addressKey(clientIp, 'signin'), capacity: attempts, perMillisecond: perMinute(attempts) }],
      response,
      'signin',
    );
  }

  /**
   * Requests to the OpenID Provider that store something for whoever asks, per client IP: registrations
   * (a client kept for good) and the starts of sign-ins and logouts (an interaction or a session).
   */
  async limitProviderRequest(clientIp: string, kind: 'registration' | 'flow', response: Response): Promise<void> {
    const c = this.config;
    const bucket: BucketSpec =
      kind === 'registration'
        ? {
            key: this.addressKey(clientIp, 'oidc-registration'),
            capacity: c.OIDC_REGISTRATIONS_PER_IP_PER_HOUR,
            perMillisecond: c.OIDC_REGISTRATIONS_PER_IP_PER_HOUR / 3_600_000,
          }
        : {
            key: this.addressKey(clientIp, 'oidc-flow'),
            capacity: c.OIDC_FLOWS_PER_IP_PER_MINUTE,
            perMillisecond: perMinute(c.OIDC_FLOWS_PER_IP_PER_MINUTE),
          };
    await this.limit([bucket], response, `oidc-${kind}`);
  }

  /** A per-client-address bucket's key: an IPv6 client is its /64 (clientAddressBucket). */
  private addressKey(clientIp: string, bucket: string): string {
    return `${this.config.REDIS_KEY_PREFIX}rl:ip:${clientAddressBucket(clientIp)}:${bucket}`;
  }

  private bucketsFor(caller: RateLimitedKey, method: string): BucketSpec[] {
    const c = this.config;
    if (caller.keyClass === KeyClass.Platform) {
      return [
        {
          key: `${c.REDIS_KEY_PREFIX}rl:key:${caller.keyId}`,
          capacity: c.RATE_LIMIT_PLATFORM_BURST,
          perMillisecond: perMinute(c.RATE_LIMIT_PLATFORM_PER_MINUTE),
        },
      ];
    }
    const buckets: BucketSpec[] = [
      {
        key: `${c.REDIS_KEY_PREFIX}rl:key:${caller.keyId}`,
        capacity: c.RATE_LIMIT_APP_BURST,
        perMillisecond: perMinute(c.RATE_LIMIT_APP_PER_MINUTE),
      },
    ];
    if (WRITE_METHODS.has(method)) {
      const writes = c.RATE_LIMIT_APP_WRITES_PER_MINUTE;
      buckets.push({ key: `${c.REDIS_KEY_PREFIX}rl:key:${caller.keyId}:writes`, capacity: writes, perMillisecond: perMinute(writes) });
    }
    return buckets;
  }

  private async limit(
    buckets: BucketSpec[],
    response: Response,
    kind: 'key' | 'waitlist' | 'signin' | 'oidc-registration' | 'oidc-flow',
  ): Promise<void> {
    let result;
    try {
      result = await this.store.take(buckets);
    } catch {
      throw rateLimiterUnavailable();
    }
    const binding = bindingBucket(result);
    const headers = {
      'X-RateLimit-Limit': String(binding.spec.capacity),
      'X-RateLimit-Remaining': String(Math.max(0, Math.floor(binding.tokens))),
    };
    if (!result.allowed) {
      recordRateLimitRejection(kind);
      throw rateLimitExceeded(headers, retryAfterSeconds(result));
    }
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
