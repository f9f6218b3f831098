import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { LeasesModule } from '../leases/leases.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UnifiedUsersModule } from '../unified-users/unified-users.module';
import { RoleBindingsController } from './role-bindings.controller';
import { RoleBindingsRepository } from './role-bindings.repository';
import { RoleBindingsService } from './role-bindings.service';

@Module({
  imports: [AuditModule, EventsModule, KeysModule, LeasesModule, RateLimitModule, UnifiedUsersModule],
  controllers: [RoleBindingsController],
  providers: [RoleBindingsRepository, RoleBindingsService],
})
export class RoleBindingsModule {}
