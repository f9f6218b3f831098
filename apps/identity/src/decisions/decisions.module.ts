import { Module } from '@nestjs/common';
import { AuditModule } from '../platform/audit-trail/audit.module';
import { CallersModule } from '../access/callers/callers.module';
import { DecisionsController } from './decisions.controller';
import { DecisionsRepository } from './decisions.repository';
import { DecisionsService } from './decisions.service';
import { RefusalTally } from './refusal-tally';
import { IdentityConfigModule } from '../platform/config/identity-config.module';

@Module({
  imports: [IdentityConfigModule, CallersModule, AuditModule],
  controllers: [DecisionsController],
  providers: [DecisionsService, DecisionsRepository, { provide: RefusalTally, useFactory: () => new RefusalTally() }],
})
export class DecisionsModule {}
