import type { ServiceDefinition } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { McpGatewayConfig } from './config/mcp-gateway.config';

export const MCP_GATEWAY: ServiceDefinition<McpGatewayConfig> = {
  service: 'mcp-gateway',
  configClass: McpGatewayConfig,
  rootModule: (config) => AppModule.register(config),
  port: (config) => config.MCP_GATEWAY_PORT,
  host: (config) => config.HOST,
};
