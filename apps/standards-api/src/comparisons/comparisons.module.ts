import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { ComparisonsController } from './comparisons.controller';
import { ComparisonsService } from './comparisons.service';

@Module({
  imports: [CallersModule, IdempotencyModule, SplitProjectsModule],
  controllers: [ComparisonsController],
  providers: [ComparisonsService],
})
export class ComparisonsModule {}
