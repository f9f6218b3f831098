import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthorizationClient } from '@stdreg/authz-client';
import { StandardsApiConfig } from '../config/standards-api.config';
import { AuthorizationGuard } from './authorization.guard';

class AuthorizationClientLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AuthorizationClient) private readonly client: AuthorizationClient) {}
  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: AuthorizationClient,
      useFactory: (config: StandardsApiConfig) =>
        new AuthorizationClient({
          identityUrl: config.IDENTITY_URL,
          // Without a configured credential identity refuses every question, so every protected request fails closed.
          serviceToken: config.IDENTITY_SERVICE_TOKEN ?? `unconfigured-${randomBytes(16).toString('hex')}`,
          timeoutMs: config.AUTHZ_TIMEOUT_MS,
          readAllowCacheMs: config.AUTHZ_READ_CACHE_MS,
        }),
      inject: [StandardsApiConfig],
    },
    AuthorizationClientLifecycle,
    AuthorizationGuard,
  ],
  exports: [AuthorizationClient, AuthorizationGuard],
})
export class AuthorizationModule {}
