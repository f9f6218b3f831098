import { type DynamicModule, Module } from '@nestjs/common';
import { downstreamServiceCheck, HealthModule } from '@stdreg/server-kit';
import { RATE_LIMIT_STORE, rateLimitReadinessChecks, type RateLimitStore } from '@stdreg/server-kit/rate-limit';
import { McpGatewayConfig } from './config/mcp-gateway.config';
import { McpModule } from './mcp/mcp.module';
import { ProtectedResourceModule } from './protected-resource/protected-resource.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

@Module({})
export class AppModule {
  static register(config: McpGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        McpModule,
        ProtectedResourceModule,
        HealthModule.register(
          {
            useFactory: (store: RateLimitStore) => [
              downstreamServiceCheck('standards-api', config.STANDARDS_API_URL),
              downstreamServiceCheck('identity', config.IDENTITY_URL),
              ...rateLimitReadinessChecks(store),
            ],
            inject: [RATE_LIMIT_STORE],
          },
          [RateLimitModule],
        ),
      ],
    };
  }
}
