import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { ComparisonsController } from './comparisons.controller';
import { ComparisonsService } from './comparisons.service';

@Module({
  imports: [CallersModule, SplitProjectsModule],
  controllers: [ComparisonsController],
  providers: [ComparisonsService],
})
export class ComparisonsModule {}
