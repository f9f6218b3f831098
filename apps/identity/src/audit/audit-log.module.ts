import { Module } from '@nestjs/common';
import { CallersModule } from '../access/callers/callers.module';
import { AuditModule } from '../platform/audit-trail/audit.module';
import { AuditController } from './audit-log.controller';
import { AuditLogService } from './audit-log.service';

/**
 * The audit log as operators read it. A folder above `callers/`: the read API stands on the key check,
 * which itself writes the log, so it cannot live with the writer.
 */
@Module({
  imports: [CallersModule, AuditModule],
  controllers: [AuditController],
  providers: [AuditLogService],
})
export class AuditLogModule {}
