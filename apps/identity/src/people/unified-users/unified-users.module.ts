import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { MergesRepository } from './merges.repository';
import { MergesService } from './merges.service';
import { UnifiedUsersController } from './unified-users.controller';
import { UnifiedUsersRepository } from './unified-users.repository';
import { UnifiedUsersService } from './unified-users.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, SubjectChangesModule],
  controllers: [UnifiedUsersController],
  providers: [UnifiedUsersRepository, UnifiedUsersService, MergesRepository, MergesService],
  exports: [UnifiedUsersService],
})
export class UnifiedUsersModule {}
