import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { formBodyMiddleware } from '../pages/form-body.middleware';
import { UnifiedUsersModule } from '../../people/unified-users/unified-users.module';
import { UsersModule } from '../../people/users/users.module';
import { PasswordHasher } from './password-hash';
import { PasswordPolicy } from './password-policy';
import { PasswordLinksModule } from './password-links.module';
import { OidcModule } from '../oidc/oidc.module';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { PasswordPagesController } from './password-pages.controller';
import { PasswordPagesService } from './password-pages.service';
import { PasswordsController } from './passwords.controller';
import { PasswordsRepository } from './passwords.repository';
import { PasswordsService } from './passwords.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

@Module({
  imports: [
    IdentityConfigModule,
    CallersModule,
    AuditModule,
    UsersModule,
    UnifiedUsersModule,
    PasswordLinksModule,
    OidcModule,
    SubjectChangesModule,
  ],
  controllers: [PasswordsController, PasswordPagesController],
  providers: [PasswordHasher, PasswordPolicy, PasswordsRepository, PasswordsService, PasswordPagesService],
  exports: [PasswordsService],
})
export class PasswordsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(formBodyMiddleware).forRoutes(PasswordPagesController);
  }
}
