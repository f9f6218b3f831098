import { Module } from '@nestjs/common';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { IdentityClient } from './identity.client';
import { RegistryCache } from './registry-cache';
import { StandardsApiClient } from './standards-api.client';
import { TokenExchangeClient } from './token-exchange.client';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule],
  providers: [
    {
      provide: StandardsApiClient,
      useFactory: (config: McpGatewayConfig) =>
        new StandardsApiClient(
          config.STANDARDS_API_URL,
          config.UPSTREAM_TIMEOUT_MS,
          // Without a service credential identity exchanges nothing, so an agent's token acts nowhere.
          new TokenExchangeClient(config.IDENTITY_URL, config.IDENTITY_SERVICE_TOKEN ?? 'unconfigured', config.UPSTREAM_TIMEOUT_MS),
        ),
      inject: [McpGatewayConfig],
    },
    {
      provide: IdentityClient,
      useFactory: (config: McpGatewayConfig) => new IdentityClient(config.IDENTITY_URL, config.UPSTREAM_TIMEOUT_MS),
      inject: [McpGatewayConfig],
    },
    {
      provide: RegistryCache,
      useFactory: (config: McpGatewayConfig, api: StandardsApiClient) => new RegistryCache(api, config.REGISTRY_CACHE_SECONDS * 1000),
      inject: [McpGatewayConfig, StandardsApiClient],
    },
  ],
  exports: [StandardsApiClient, IdentityClient, RegistryCache],
})
export class UpstreamModule {}
