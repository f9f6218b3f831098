import { EventsModule } from '../events/events.module';
import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WriteAuditModule } from '../write-audit/write-audit.module';
import { RegistryModule } from '../registry/registry.module';
import { StandardsApiConfigModule } from '../config/standards-api-config.module';
import { OperatingScenariosController } from './operating-scenarios.controller';
import { SplitProjectsController } from './split-projects.controller';
import { SplitProjectsRepository } from './split-projects.repository';
import { SplitProjectsService } from './split-projects.service';

@Module({
  imports: [StandardsApiConfigModule, CallersModule, IdempotencyModule, WriteAuditModule, RegistryModule, EventsModule],
  controllers: [SplitProjectsController, OperatingScenariosController],
  providers: [SplitProjectsRepository, SplitProjectsService],
  exports: [SplitProjectsService],
})
export class SplitProjectsModule {}
