import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthorizationClient } from './authorization-client';
import type { AuthorizedServiceConfig } from './authorized-service-config';

class AuthorizationClientLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AuthorizationClient) private readonly client: AuthorizationClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/** `AuthorizationClient` built from the service's config (injected as `configClass`), closed on shutdown. */
export function authorizationClientProviders(configClass: abstract new () => AuthorizedServiceConfig): Provider[] {
  return [
    {
      provide: AuthorizationClient,
      useFactory: (config: AuthorizedServiceConfig) =>
        new AuthorizationClient({
          identityUrl: config.IDENTITY_URL,
          // Without a configured credential identity refuses every question, so every protected request fails closed.
          serviceToken: config.IDENTITY_SERVICE_TOKEN ?? `unconfigured-${randomBytes(16).toString('hex')}`,
          timeoutMs: config.AUTHZ_TIMEOUT_MS,
          readAllowCacheMs: config.AUTHZ_READ_CACHE_MS,
          followSubjectChanges: true,
          ...(config.decisionAudience === undefined ? {} : { audience: config.decisionAudience }),
        }),
      inject: [configClass],
    },
    AuthorizationClientLifecycle,
  ];
}
