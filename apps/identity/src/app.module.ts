import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HealthModule } from '@stdreg/server-kit';
import { DatabaseModule, databaseReadinessCheck } from '@stdreg/server-kit/database';
import { RATE_LIMIT_STORE, rateLimitReadinessChecks, type RateLimitStore } from '@stdreg/server-kit/rate-limit';
import { AuditLogModule } from './audit/audit-log.module';
import { BootstrapModule } from './access/bootstrap/bootstrap.module';
import { IdentityConfig } from './platform/config/identity.config';
import { DecisionsModule } from './decisions/decisions.module';
import { TokenExchangeModule } from './sign-in/token-exchange/token-exchange.module';
import { KeysModule } from './access/keys/keys.module';
import { IDENTITY_MIGRATIONS } from './migrations';
import { OidcModule } from './sign-in/oidc/oidc.module';
import { OrganizationsModule } from './partners/organizations/organizations.module';
import { PasswordsModule } from './sign-in/passwords/passwords.module';
import { RateLimitModule } from './platform/rate-limit/rate-limit.module';
import { RegisteredAppsModule } from './partners/registered-apps/registered-apps.module';
import { RoleBindingsModule } from './people/role-bindings/role-bindings.module';
import { SigninModule } from './sign-in/signin/signin.module';
import { SyncModule } from './people/sync/sync.module';
import { UnifiedUsersModule } from './people/unified-users/unified-users.module';
import { UsersModule } from './people/users/users.module';
import { WaitlistModule } from './partners/waitlist/waitlist.module';
import { WebhooksModule } from './partners/webhooks/webhooks.module';
import { EventHandoverModule } from './partners/event-handover/event-handover.module';

@Module({})
export class AppModule {
  static register(config: IdentityConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot({
          service: 'identity',
          ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
          dataDir: config.DATA_DIR,
          poolIdleTimeoutMs: config.DATABASE_POOL_IDLE_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          maintenanceStatementTimeoutMs: config.DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS,
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
