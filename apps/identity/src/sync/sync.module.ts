import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { SubjectChangesModule } from '../subject-changes/subject-changes.module';
import { RegisteredAppsModule } from '../registered-apps/registered-apps.module';
import { UsersModule } from '../users/users.module';
import { SyncController } from './sync.controller';
import { SyncService } from './sync.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, SubjectChangesModule, RegisteredAppsModule, UsersModule],
  controllers: [SyncController],
  providers: [SyncService],
})
export class SyncModule {}
