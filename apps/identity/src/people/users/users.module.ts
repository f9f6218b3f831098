import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { RegisteredAppsModule } from '../../partners/registered-apps/registered-apps.module';
import { OidcModule } from '../../sign-in/oidc/oidc.module';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [CallersModule, AuditModule, SubjectChangesModule, RegisteredAppsModule, OidcModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
