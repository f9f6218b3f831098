import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { LeasesModule } from '../leases/leases.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { RegisteredAppsModule } from '../registered-apps/registered-apps.module';
import { UsersModule } from '../users/users.module';
import { SyncController } from './sync.controller';
import { SyncService } from './sync.service';

@Module({
  imports: [AuditModule, EventsModule, KeysModule, LeasesModule, RateLimitModule, RegisteredAppsModule, UsersModule],
  controllers: [SyncController],
  providers: [SyncService],
})
export class SyncModule {}
