import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigValidationError } from '@stdreg/server-kit';
import { ClientSecretSealer, webhookEndpointSealContext } from './client-secret-sealer';
import { DEV_SECRETS_FILE } from './oidc-secrets';
import { SealedSecretsRepository, type SealedSecret } from './sealed-secrets.repository';

/**
 * Refuses to start with a key that does not open the secrets the database holds sealed (a database restored without
 * the OIDC_CLIENT_SECRET_KEY, or the DATA_DIR/oidc-secrets.json, it was written with): started anyway, no partner app
 * could sign anyone in and every webhook delivery would fail until its endpoint is disabled.
 */
@Injectable()
export class SealingKeyCheck implements OnApplicationBootstrap {
  constructor(
    private readonly sealedSecrets: SealedSecretsRepository,
    private readonly sealer: ClientSecretSealer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const unopened = (await this.sealedSecrets.newest()).filter((secret) => this.sealer.open(contextOf(secret), secret.sealed) === null);
    if (unopened.length === 0) return;
    throw new ConfigValidationError([
      `OIDC_CLIENT_SECRET_KEY: does not open the secrets this database holds sealed (${unopened
        .map((secret) => `${secret.kind} ${secret.boundTo}`)
        .join(', ')}); start with the key they were sealed with (when it is unset: the ${DEV_SECRETS_FILE} of the DATA_DIR ` +
        'that ran with this database, which a backup must keep beside the database)',
    ]);
  }
}

function contextOf(secret: SealedSecret): string {
  return secret.kind === 'webhook_endpoint' ? webhookEndpointSealContext(secret.boundTo) : secret.boundTo;
}
