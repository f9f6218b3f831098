import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule, JsonLogger } from '@stdreg/server-kit';
import { McpGatewayConfig } from './config/mcp-gateway.config';
import { McpModule } from './mcp/mcp.module';
import { upstreamReadinessCheck } from './upstream/upstream-readiness';

@Module({})
export class AppModule {
  static register(config: McpGatewayConfig, logger: JsonLogger): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        McpModule,
        HealthModule.register({
          useValue: [
            upstreamReadinessCheck('standards-api', config.STANDARDS_API_URL),
            upstreamReadinessCheck('identity', config.IDENTITY_URL),
          ],
        }),
      ],
      providers: [
        { provide: McpGatewayConfig, useValue: config },
        { provide: JsonLogger, useValue: logger },
      ],
      exports: [McpGatewayConfig, JsonLogger],
    };
  }
}
