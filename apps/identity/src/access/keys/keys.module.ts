import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { EventsModule } from '../../platform/outbox/events.module';
import { CallersModule } from '../callers/callers.module';
import { SubjectChangesModule } from '../subject-changes/subject-changes.module';
import { PasswordLinksModule } from '../../sign-in/passwords/password-links.module';
import { KeysController } from './keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/** API keys managed: issue, list, rotate, revoke (the key check is CallersModule's). */
@Module({
  imports: [IdentityConfigModule, CallersModule, AuditModule, EventsModule, SubjectChangesModule, PasswordLinksModule],
  controllers: [KeysController],
  providers: [KeysRepository, KeysService],
  exports: [KeysService],
})
export class KeysModule {}
