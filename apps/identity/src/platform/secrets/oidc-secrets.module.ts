import { Module } from '@nestjs/common';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../config/identity.config';
import { ClientSecretSealer } from './client-secret-sealer';
import { loadOidcSecrets, OIDC_SECRETS, type OidcSecrets } from './oidc-secrets';
import { IdentityConfigModule } from '../config/identity-config.module';
import { SealedSecretsRepository } from './sealed-secrets.repository';
import { SealingKeyCheck } from './sealing-key-check';

/**
 * The sign-in secrets, loaded (or made for development) once at start; app registration seals client secrets with them,
 * and the start stops when they do not open the secrets the database holds sealed.
 */
@Module({
  imports: [IdentityConfigModule],
  providers: [
    {
      provide: OIDC_SECRETS,
      useFactory: (config: IdentityConfig, logger: JsonLogger): OidcSecrets => {
        const { generated, ...secrets } = loadOidcSecrets(config);
        if (generated.length > 0) {
          logger.event(
            'warn',
            'sign-in secrets generated for development and kept under DATA_DIR; set them for more than one replica (NODE_ENV=production refuses to start without them)',
            { variables: generated },
            'Oidc',
          );
        }
        return secrets;
      },
      inject: [IdentityConfig, JsonLogger],
    },
    ClientSecretSealer,
    SealedSecretsRepository,
    SealingKeyCheck,
  ],
  exports: [OIDC_SECRETS, ClientSecretSealer],
})
export class OidcSecretsModule {}
