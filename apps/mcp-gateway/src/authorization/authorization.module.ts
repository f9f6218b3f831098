import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthorizationClient } from '@stdreg/authz-client';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { GatewayAuthorization } from './gateway-authorization';

class AuthorizationClientLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AuthorizationClient) private readonly client: AuthorizationClient) {}
  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

@Module({
  providers: [
    {
      provide: AuthorizationClient,
      useFactory: (config: McpGatewayConfig) =>
        new AuthorizationClient({
          identityUrl: config.IDENTITY_URL,
          // Without a configured credential identity refuses every question, so every keyed request fails closed.
          serviceToken: config.IDENTITY_SERVICE_TOKEN ?? `unconfigured-${randomBytes(16).toString('hex')}`,
          timeoutMs: config.AUTHZ_TIMEOUT_MS,
        }),
      inject: [McpGatewayConfig],
    },
    AuthorizationClientLifecycle,
    GatewayAuthorization,
  ],
  exports: [GatewayAuthorization],
})
export class AuthorizationModule {}
