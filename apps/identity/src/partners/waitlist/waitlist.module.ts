import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { KeysModule } from '../../access/keys/keys.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { WaitlistController } from './waitlist.controller';
import { WaitlistRepository } from './waitlist.repository';
import { WaitlistService } from './waitlist.service';

@Module({
  imports: [CallersModule, AuditModule, KeysModule, RateLimitModule, OrganizationsModule],
  controllers: [WaitlistController],
  providers: [WaitlistRepository, WaitlistService],
})
export class WaitlistModule {}
