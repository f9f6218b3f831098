import { Module } from '@nestjs/common';
import { JsonLogger, PeriodicPurge } from '@stdreg/server-kit';
import { IdentityConfig } from '../../platform/config/identity.config';
import { SubjectChanges } from '../../access/subject-changes/subject-changes';
import { SubjectChangesModule } from '../../access/subject-changes/subject-changes.module';
import { RegisteredAppsModule } from '../../partners/registered-apps/registered-apps.module';
import { UnifiedUsersModule } from '../../people/unified-users/unified-users.module';
import { AccessTokenSigner } from './access-token-signer';
import { AccessTokenRevocation } from './access-token-revocation';
import { GrantRevocations } from './grant-revocations';
import { CallersModule } from '../../access/callers/callers.module';
import { OidcAccounts } from './oidc-accounts';
import { OidcClients } from './oidc-clients';
import { createOidcProvider } from './oidc-provider.factory';
import { OIDC_SECRETS, type OidcSecrets } from '../../platform/secrets/oidc-secrets';
import { OidcSecretsModule } from '../../platform/secrets/oidc-secrets.module';
import { OidcStoreRepository } from './oidc-store.repository';
import { RevokedAccessTokensRepository } from './revoked-access-tokens.repository';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { AuditService } from '../../platform/audit-trail/audit.service';

export const OIDC_PROVIDER = Symbol('OIDC_PROVIDER');

/**
 * The OpenID Provider, its revocation of access tokens, the signing the token exchange uses (tokens are verified in
 * callers/), and GrantRevocations (a password set again, or the person's deletion, ends the person's sign-ins there,
 * each grant with its audit entry).
 */
@Module({
  imports: [
    IdentityConfigModule,
    CallersModule,
    OidcSecretsModule,
    RegisteredAppsModule,
    UnifiedUsersModule,
    SubjectChangesModule,
    AuditModule,
  ],
  providers: [
    OidcStoreRepository,
    PeriodicPurge.of(OidcStoreRepository, IdentityConfig, (store) => store.purgeExpired(), {
      message: 'purging expired sign-in records failed',
      context: 'Oidc',
    }),
    OidcAccounts,
    OidcClients,
    RevokedAccessTokensRepository,
    AccessTokenRevocation,
    AccessTokenSigner,
    GrantRevocations,
    {
      provide: OIDC_PROVIDER,
      useFactory: (
        config: IdentityConfig,
        secrets: OidcSecrets,
        store: OidcStoreRepository,
        clients: OidcClients,
        accounts: OidcAccounts,
        accessTokens: AccessTokenRevocation,
        subjectChanges: SubjectChanges,
        logger: JsonLogger,
        audit: AuditService,
        grants: GrantRevocations,
      ) => {
        const provider = createOidcProvider({ config, secrets, store, clients, accounts, accessTokens, subjectChanges, audit, grants });
        // The provider answers its own failures (a 500 page or server_error body); they still belong in the log.
        provider.on('server_error', (_ctx: unknown, error: Error) =>
          logger.event('error', 'sign-in provider failed', { error: error.message }, 'Oidc'),
        );
        return provider;
      },
      inject: [
        IdentityConfig,
        OIDC_SECRETS,
        OidcStoreRepository,
        OidcClients,
        OidcAccounts,
        AccessTokenRevocation,
        SubjectChanges,
        JsonLogger,
        AuditService,
        GrantRevocations,
      ],
    },
  ],
  exports: [OIDC_PROVIDER, AccessTokenSigner, OidcStoreRepository, GrantRevocations],
})
export class OidcModule {}
