import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { OidcModule } from '../oidc/oidc.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { PasswordsModule } from '../passwords/passwords.module';
import { UnifiedUsersModule } from '../../people/unified-users/unified-users.module';
import { formBodyMiddleware } from '../pages/form-body.middleware';
import { SigninController } from './signin.controller';
import { SigninService } from './signin.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';

@Module({
  imports: [AuditModule, IdentityConfigModule, OidcModule, PasswordsModule, RateLimitModule, UnifiedUsersModule],
  controllers: [SigninController],
  providers: [SigninService],
})
export class SigninModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(formBodyMiddleware).forRoutes(SigninController);
  }
}
