import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { IdentityConfig } from '../config/identity.config';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { KeyAuthGuard, PlatformKeyGuard } from './key-auth.guard';
import { KeyLeases } from './key-leases';
import { LeasesModule } from '../leases/leases.module';
import { KeysController } from './keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

/**
 * API keys and the key check every keyed route stands on. A module whose controllers use `KeyAuth()` or
 * `PlatformKeyAuth()` imports this one, AuditModule and RateLimitModule: Nest builds those guards in the
 * controller's module, from KeysService, AuditService and RateLimiter.
 */
@Module({
  imports: [AuditModule, EventsModule, LeasesModule, RateLimitModule],
  controllers: [KeysController],
  providers: [
    KeysRepository,
    KeysService,
    { provide: KeyLeases, useFactory: (config: IdentityConfig) => new KeyLeases(config.KEY_LEASE_MS), inject: [IdentityConfig] },
    KeyAuthGuard,
    PlatformKeyGuard,
  ],
  exports: [KeysService, KeyAuthGuard, PlatformKeyGuard],
})
export class KeysModule {}
