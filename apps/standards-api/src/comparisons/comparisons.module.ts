import { Module } from '@nestjs/common';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { ComparisonsController } from './comparisons.controller';
import { ComparisonsService } from './comparisons.service';

@Module({
  imports: [SplitProjectsModule],
  controllers: [ComparisonsController],
  providers: [ComparisonsService],
})
export class ComparisonsModule {}
