import { Module } from '@nestjs/common';
import { AuditController } from './audit-log.controller';

/** The audit log as operators read it (the log itself is written by every feature through AuditService). */
@Module({ controllers: [AuditController] })
export class AuditLogModule {}
