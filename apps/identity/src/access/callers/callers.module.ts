import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { OidcSecretsModule } from '../../platform/secrets/oidc-secrets.module';
import { AccessTokenSubjectRepository } from './access-token-subject.repository';
import { AccessTokenVerifier } from './access-token-verifier';
import { ForwardedCredentials } from './forwarded-credentials';
import { KeyAuthGuard, KeyRateLimitGuard, KeyRequirementGuard } from './key-auth.guard';
import { KeyAuthentication } from './key-authentication';
import { KeyCredentialsRepository } from './key-credentials.repository';
import { LeasesModule } from './leases.module';
import { ServiceTokenGuard } from './service-token.guard';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/**
 * Who is calling, of every kind: API keys on identity's own routes, keys and access tokens (people's and
 * agents') forwarded to the decision endpoint, services with their credential. A module whose controllers
 * use `KeyAuth()`, `PlatformKeyAuth()` or `ServiceAuth()` (caller.decorators.ts) imports this one and
 * nothing else for it: it passes on what Nest builds those guards from (the audit log a key's use is
 * recorded in, the rate limiter, the config naming the services' credentials).
 */
const AUTHENTICATION = [KeyAuthentication, AccessTokenVerifier, ForwardedCredentials];
const GUARDS = [KeyAuthGuard, KeyRateLimitGuard, KeyRequirementGuard, ServiceTokenGuard];

@Module({
  imports: [IdentityConfigModule, AuditModule, RateLimitModule, LeasesModule, OidcSecretsModule],
  providers: [KeyCredentialsRepository, AccessTokenSubjectRepository, ...AUTHENTICATION, ...GUARDS],
  exports: [...AUTHENTICATION, ...GUARDS, AuditModule, RateLimitModule, IdentityConfigModule],
})
export class CallersModule {}
