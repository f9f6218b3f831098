import { Module } from '@nestjs/common';
import { SplitProjectsModule } from '../split-projects/split-projects.module';
import { SettlementsController } from './settlements.controller';
import { SettlementsRepository } from './settlements.repository';
import { SettlementsService } from './settlements.service';

@Module({
  imports: [SplitProjectsModule],
  controllers: [SettlementsController],
  providers: [SettlementsRepository, SettlementsService],
})
export class SettlementsModule {}
