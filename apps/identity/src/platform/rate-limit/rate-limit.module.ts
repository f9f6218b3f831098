import { Module } from '@nestjs/common';
import { openRateLimitStore, RATE_LIMIT_STORE } from '@stdreg/server-kit/rate-limit';
import { IdentityConfig } from '../config/identity.config';
import { IpRateLimitGuard } from './rate-limit.guard';
import { RateLimiter } from './rate-limiter';
import { IdentityConfigModule } from '../config/identity-config.module';

/** The rate limits of keyed requests, the waitlist and sign-in, on one store (the readiness check reads it too). */
@Module({
  imports: [IdentityConfigModule],
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      useFactory: (config: IdentityConfig) => openRateLimitStore(config.REDIS_URL),
      inject: [IdentityConfig],
    },
    RateLimiter,
    IpRateLimitGuard,
  ],
  exports: [RATE_LIMIT_STORE, RateLimiter, IpRateLimitGuard],
})
export class RateLimitModule {}
