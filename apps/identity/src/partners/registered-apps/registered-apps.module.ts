import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { KeysModule } from '../../access/keys/keys.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { OidcSecretsModule } from '../../platform/secrets/oidc-secrets.module';
import { PasswordLinksModule } from '../../sign-in/passwords/password-links.module';
import { RegisteredAppsController } from './registered-apps.controller';
import { RegisteredAppsRepository } from './registered-apps.repository';
import { RegisteredAppsService } from './registered-apps.service';

@Module({
  imports: [CallersModule, AuditModule, EventsModule, KeysModule, SubjectChangesModule, OidcSecretsModule, PasswordLinksModule],
  controllers: [RegisteredAppsController],
  providers: [RegisteredAppsRepository, RegisteredAppsService],
  exports: [RegisteredAppsService],
})
export class RegisteredAppsModule {}
