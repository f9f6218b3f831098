import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HealthModule, JsonLogger } from '@stdreg/server-kit';
import { DatabaseModule, databaseReadinessCheck } from '@stdreg/server-kit/database';
import { RATE_LIMIT_STORE, rateLimitReadinessChecks, type RateLimitStore } from '@stdreg/server-kit/rate-limit';
import { AuditLogModule } from './audit-log/audit-log.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { IdentityConfig } from './config/identity.config';
import { IdentityConfigModule } from './config/identity-config.module';
import { DecisionsModule } from './decisions/decisions.module';
import { TokenExchangeModule } from './token-exchange/token-exchange.module';
import { KeysModule } from './keys/keys.module';
import { IDENTITY_MIGRATIONS } from './migrations';
import { OidcModule } from './oidc/oidc.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PasswordsModule } from './passwords/passwords.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RegisteredAppsModule } from './registered-apps/registered-apps.module';
import { RoleBindingsModule } from './role-bindings/role-bindings.module';
import { SigninModule } from './signin/signin.module';
import { SyncModule } from './sync/sync.module';
import { UnifiedUsersModule } from './unified-users/unified-users.module';
import { UsersModule } from './users/users.module';
import { WaitlistModule } from './waitlist/waitlist.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { EventHandoverModule } from './event-handover/event-handover.module';

@Module({})
export class AppModule {
  static register(config: IdentityConfig, logger: JsonLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        IdentityConfigModule.forRoot(config, logger),
        DatabaseModule.forRoot({
          service: 'identity',
          ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
          dataDir: config.DATA_DIR,
          poolIdleTimeoutMs: config.DATABASE_POOL_IDLE_TIMEOUT_MS,
          entities: [],
          migrations: IDENTITY_MIGRATIONS,
        }),
        HealthModule.register(
          {
            useFactory: (dataSource: DataSource, store: RateLimitStore) => [
              databaseReadinessCheck(dataSource),
              ...rateLimitReadinessChecks(store),
            ],
            inject: [DataSource, RATE_LIMIT_STORE],
          },
          [RateLimitModule],
        ),
        BootstrapModule,
        KeysModule,
        AuditLogModule,
        DecisionsModule,
        TokenExchangeModule,
        OrganizationsModule,
        RegisteredAppsModule,
        UnifiedUsersModule,
        RoleBindingsModule,
        UsersModule,
        SyncModule,
        WaitlistModule,
        OidcModule,
        PasswordsModule,
        SigninModule,
        WebhooksModule,
        EventHandoverModule,
      ],
    };
  }
}
