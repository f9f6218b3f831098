import { Module } from '@nestjs/common';
import { JsonLogger, serviceConfigProviders } from '@stdreg/server-kit';
import { McpGatewayConfig } from './mcp-gateway.config';

/** The validated config and the logger: a module whose providers inject either imports this one. */
@Module({
  providers: serviceConfigProviders(McpGatewayConfig),
  exports: [McpGatewayConfig, JsonLogger],
})
export class McpGatewayConfigModule {}
