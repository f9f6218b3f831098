import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { CommonServiceConfig } from '@stdreg/server-kit';

const toInt = () => Type(() => Number);

export class IdentityConfig extends CommonServiceConfig {
  @toInt() @IsInt() @Min(0) @Max(65535)
  IDENTITY_PORT = 3003;

  /** Redis for the shared rate-limit buckets; unset: an in-process store (one replica only). */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string = undefined;

  /** Prefix of every key identity writes in Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 characters of [A-Za-z0-9:_-]' })
  REDIS_KEY_PREFIX = 'stdreg:identity:';

  /**
   * Service credentials the other services present to the decision endpoint, comma-separated,
   * each `name:token` with a token of at least 32 characters.
   */
  @IsOptional()
  @Matches(/^[a-z][a-z0-9-]{0,40}:[A-Za-z0-9_-]{32,200}(,[a-z][a-z0-9-]{0,40}:[A-Za-z0-9_-]{32,200})*$/, {
    message: 'must be comma-separated name:token pairs, each token 32-200 characters of [A-Za-z0-9_-]',
  })
  DECISION_SERVICE_TOKENS?: string = undefined;

  /** How long a rotated key's previous secret keeps working, unless the rotation says otherwise. */
  @toInt() @IsInt() @Min(0) @Max(2592000)
  KEY_ROTATION_GRACE_SECONDS = 86400;

  /** `auto`: on start, if there is no platform key, create one and write it to DATA_DIR/bootstrap-platform-key. */
  @IsIn(['auto', 'off'])
  BOOTSTRAP_PLATFORM_KEY: 'auto' | 'off' = 'auto';

  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_PER_MINUTE = 60;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_BURST = 120;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_APP_WRITES_PER_MINUTE = 20;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_PLATFORM_PER_MINUTE = 120;
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_PLATFORM_BURST = 240;
  /** Anonymous waitlist requests per client IP: this many per hour, all of them at once at most. */
  @toInt() @IsInt() @Min(1) @Max(100000) RATE_LIMIT_WAITLIST_PER_HOUR = 10;

  /** Express `trust proxy`: how many proxies in front set X-Forwarded-For (0: use the socket address). */
  @toInt() @IsInt() @Min(0) @Max(10)
  TRUSTED_PROXY_HOPS = 0;

  /** Token → service name. */
  get serviceTokens(): Map<string, string> {
    const tokens = new Map<string, string>();
    for (const pair of (this.DECISION_SERVICE_TOKENS ?? '').split(',').filter(Boolean)) {
      const [name, token] = pair.split(':') as [string, string];
      tokens.set(token, name);
    }
    return tokens;
  }
}
