import { Global, Module } from '@nestjs/common';
import { openRateLimitStore, RATE_LIMIT_STORE } from '@stdreg/server-kit/rate-limit';
import { AuditRepository } from '../audit/audit.repository';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config/identity.config';
import { KeyLeases } from '../keys/key-leases';
import { KeysRepository } from '../keys/keys.repository';
import { KeysService } from '../keys/keys.service';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { IpRateLimitGuard, KeyRateLimitGuard } from '../rate-limit/rate-limit.guard';
import { KeyAuthGuard, PlatformKeyGuard } from '../keys/key-auth.guard';

/** What every feature's guards stand on: key authentication, rate limits and the audit log. */
@Global()
@Module({
  providers: [
    KeysRepository,
    KeysService,
    { provide: KeyLeases, useFactory: (config: IdentityConfig) => new KeyLeases(config.KEY_LEASE_MS), inject: [IdentityConfig] },
    AuditRepository,
    AuditService,
    {
      provide: RATE_LIMIT_STORE,
      useFactory: (config: IdentityConfig) => openRateLimitStore(config.REDIS_URL),
      inject: [IdentityConfig],
    },
    RateLimiter,
    KeyAuthGuard,
    PlatformKeyGuard,
    KeyRateLimitGuard,
    IpRateLimitGuard,
  ],
  exports: [KeysService, AuditService, RateLimiter, RATE_LIMIT_STORE, KeyAuthGuard, PlatformKeyGuard, KeyRateLimitGuard, IpRateLimitGuard],
})
export class IdentityCoreModule {}
