import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { SubjectChangesModule } from '../subject-changes/subject-changes.module';
import { OidcSecretsModule } from '../secrets/oidc-secrets.module';
import { RegisteredAppsController } from './registered-apps.controller';
import { RegisteredAppsRepository } from './registered-apps.repository';
import { RegisteredAppsService } from './registered-apps.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, KeysModule, SubjectChangesModule, OidcSecretsModule],
  controllers: [RegisteredAppsController],
  providers: [RegisteredAppsRepository, RegisteredAppsService],
  exports: [RegisteredAppsService],
})
export class RegisteredAppsModule {}
