import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { openRateLimitStore, RATE_LIMIT_STORE, type RateLimitStore } from '@stdreg/server-kit/rate-limit';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { ToolCallLimiter } from './tool-call-limiter';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

class RateLimitStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * The tool-call buckets: in Redis when REDIS_URL is set (shared by replicas), in this process otherwise.
 * Imported where it is used: by the MCP endpoint (the limiter) and by the readiness checks (the store).
 */
@Module({
  imports: [McpGatewayConfigModule],
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      useFactory: (config: McpGatewayConfig) => openRateLimitStore(config.REDIS_URL),
      inject: [McpGatewayConfig],
    },
    {
      provide: ToolCallLimiter,
      useFactory: (store: RateLimitStore, config: McpGatewayConfig) =>
        new ToolCallLimiter(store, {
          perKeyPerMinute: config.MCP_TOOL_CALLS_PER_MINUTE_PER_KEY,
          perIpPerMinute: config.MCP_TOOL_CALLS_PER_MINUTE_PER_IP,
          keyPrefix: config.REDIS_KEY_PREFIX,
        }),
      inject: [RATE_LIMIT_STORE, McpGatewayConfig],
    },
    RateLimitStoreLifecycle,
  ],
  exports: [RATE_LIMIT_STORE, ToolCallLimiter],
})
export class RateLimitModule {}
