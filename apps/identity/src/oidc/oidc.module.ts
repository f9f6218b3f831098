import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../config/identity.config';
import { LeasesModule } from '../leases/leases.module';
import { TokenSubjectLeases } from '../leases/token-subject-leases';
import { RegisteredAppsModule } from '../registered-apps/registered-apps.module';
import { UnifiedUsersModule } from '../unified-users/unified-users.module';
import { AccessTokenSigner } from './access-token-signer';
import { AccessTokenSubjectRepository } from './access-token-subject.repository';
import { AccessTokenVerifier } from './access-token-verifier';
import { OidcAccounts } from './oidc-accounts';
import { OidcClients } from './oidc-clients';
import { createOidcProvider } from './oidc-provider.factory';
import { OIDC_SECRETS, type OidcSecrets } from '../secrets/oidc-secrets';
import { OidcSecretsModule } from '../secrets/oidc-secrets.module';
import { OidcStoreRepository } from './oidc-store.repository';

export const OIDC_PROVIDER = Symbol('OIDC_PROVIDER');

const PURGE_EVERY_MS = 10 * 60 * 1000;

/** The OpenID Provider, the access-token verification the decision endpoint uses, and the signing the token exchange uses. */
@Module({
  imports: [OidcSecretsModule, RegisteredAppsModule, UnifiedUsersModule, LeasesModule],
  providers: [
    OidcStoreRepository,
    OidcAccounts,
    OidcClients,
    AccessTokenSubjectRepository,
    AccessTokenVerifier,
    AccessTokenSigner,
    {
      provide: OIDC_PROVIDER,
      useFactory: (
        config: IdentityConfig,
        secrets: OidcSecrets,
        store: OidcStoreRepository,
        clients: OidcClients,
        accounts: OidcAccounts,
        accessTokens: AccessTokenVerifier,
        subjectLeases: TokenSubjectLeases,
        logger: JsonLogger,
      ) => {
        const provider = createOidcProvider({ config, secrets, store, clients, accounts, accessTokens, subjectLeases });
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
        AccessTokenVerifier,
        TokenSubjectLeases,
        JsonLogger,
      ],
    },
  ],
  exports: [OIDC_PROVIDER, AccessTokenVerifier, AccessTokenSigner],
})
export class OidcModule implements OnModuleInit, OnModuleDestroy {
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: OidcStoreRepository,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
  ) {}

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => {
      this.store
        .purgeExpired()
        .catch((error: unknown) => this.logger.event('warn', 'purging expired sign-in records failed', { error: String(error) }, 'Oidc'));
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }
}
