import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { LeasesModule } from '../leases/leases.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { OidcSecretsModule } from '../secrets/oidc-secrets.module';
import { RegisteredAppsController } from './registered-apps.controller';
import { RegisteredAppsRepository } from './registered-apps.repository';
import { RegisteredAppsService } from './registered-apps.service';

@Module({
  imports: [AuditModule, EventsModule, KeysModule, LeasesModule, RateLimitModule, OidcSecretsModule],
  controllers: [RegisteredAppsController],
  providers: [RegisteredAppsRepository, RegisteredAppsService],
  exports: [RegisteredAppsService],
})
export class RegisteredAppsModule {}
