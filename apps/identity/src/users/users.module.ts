import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { KeysModule } from '../keys/keys.module';
import { LeasesModule } from '../leases/leases.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { RegisteredAppsModule } from '../registered-apps/registered-apps.module';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [AuditModule, KeysModule, LeasesModule, RateLimitModule, RegisteredAppsModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
