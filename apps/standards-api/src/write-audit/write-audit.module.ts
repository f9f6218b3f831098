import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WriteAuditRepository } from './write-audit.repository';
import { WriteAudit } from './write-audit.service';

@Module({ imports: [IdempotencyModule], providers: [WriteAudit, WriteAuditRepository], exports: [WriteAudit] })
export class WriteAuditModule {}
