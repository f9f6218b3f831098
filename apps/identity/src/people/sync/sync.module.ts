import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { RegisteredAppsModule } from '../../partners/registered-apps/registered-apps.module';
import { UsersModule } from '../users/users.module';
import { SyncController } from './sync.controller';
import { SyncService } from './sync.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, SubjectChangesModule, RegisteredAppsModule, UsersModule],
  controllers: [SyncController],
  providers: [SyncService],
})
export class SyncModule {}
