import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { UnifiedUsersModule } from '../unified-users/unified-users.module';
import { RoleBindingsController } from './role-bindings.controller';
import { RoleBindingsRepository } from './role-bindings.repository';
import { RoleBindingsService } from './role-bindings.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, SubjectChangesModule, UnifiedUsersModule],
  controllers: [RoleBindingsController],
  providers: [RoleBindingsRepository, RoleBindingsService],
})
export class RoleBindingsModule {}
