import { EventsModule } from '../events/events.module';
import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WriteAuditModule } from '../write-audit/write-audit.module';
import { ConfirmationsModule } from '../confirmations/confirmations.module';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { RuleVersionsController } from './rule-versions.controller';
import { RuleVersionsRepository } from './rule-versions.repository';
import { RuleVersionsService } from './rule-versions.service';

@Module({
  imports: [CallersModule, IdempotencyModule, WriteAuditModule, SplitProjectsModule, ConfirmationsModule, EventsModule],
  controllers: [RuleVersionsController],
  providers: [RuleVersionsRepository, RuleVersionsService],
})
export class RuleVersionsModule {}
