import { EventsModule } from '../events/events.module';
import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WriteAuditModule } from '../write-audit/write-audit.module';
import { ConfirmationsModule } from '../confirmations/confirmations.module';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { SettlementsController } from './settlements.controller';
import { SettlementPostingService } from './settlement-posting.service';
import { SettlementsRepository } from './settlements.repository';
import { SettlementsService } from './settlements.service';

@Module({
  imports: [CallersModule, IdempotencyModule, WriteAuditModule, SplitProjectsModule, ConfirmationsModule, EventsModule],
  controllers: [SettlementsController],
  providers: [SettlementsRepository, SettlementsService, SettlementPostingService],
})
export class SettlementsModule {}
