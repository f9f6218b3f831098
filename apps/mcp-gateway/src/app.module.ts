import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule } from '@stdreg/server-kit';
import type { McpGatewayConfig } from './config/mcp-gateway.config';
import { upstreamReadinessCheck } from './upstream/upstream-readiness';

@Module({})
export class AppModule {
  static register(config: McpGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        HealthModule.register({
          useValue: [
            upstreamReadinessCheck('standards-api', config.STANDARDS_API_URL),
            upstreamReadinessCheck('identity', config.IDENTITY_URL),
          ],
        }),
      ],
    };
  }
}
