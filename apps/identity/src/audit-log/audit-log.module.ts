import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { KeysModule } from '../keys/keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AuditController } from './audit-log.controller';

/**
 * The audit log as operators read it. A folder above `keys/`: the read API stands on the key check,
 * which itself writes the log, so it cannot live in `audit/`.
 */
@Module({
  imports: [AuditModule, KeysModule, RateLimitModule],
  controllers: [AuditController],
})
export class AuditLogModule {}
