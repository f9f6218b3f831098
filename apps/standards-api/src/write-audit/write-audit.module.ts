import { Global, Module } from '@nestjs/common';
import { WriteAudit } from './write-audit.service';

@Global()
@Module({ providers: [WriteAudit], exports: [WriteAudit] })
export class WriteAuditModule {}
