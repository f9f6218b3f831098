import { Global, Module } from '@nestjs/common';
import { WriteAuditRepository } from './write-audit.repository';
import { WriteAudit } from './write-audit.service';

@Global()
@Module({ providers: [WriteAudit, WriteAuditRepository], exports: [WriteAudit] })
export class WriteAuditModule {}
