import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { LeasesModule } from '../leases/leases.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { MergesRepository } from './merges.repository';
import { MergesService } from './merges.service';
import { UnifiedUsersController } from './unified-users.controller';
import { UnifiedUsersRepository } from './unified-users.repository';
import { UnifiedUsersService } from './unified-users.service';

@Module({
  imports: [AuditModule, EventsModule, KeysModule, LeasesModule, RateLimitModule],
  controllers: [UnifiedUsersController],
  providers: [UnifiedUsersRepository, UnifiedUsersService, MergesRepository, MergesService],
  exports: [UnifiedUsersService],
})
export class UnifiedUsersModule {}
