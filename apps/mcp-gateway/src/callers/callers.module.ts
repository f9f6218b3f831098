import { Module } from '@nestjs/common';
import { authorizationClientProviders } from '@stdreg/authz-client';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { GatewayAuthorization } from './gateway-authorization';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule],
  providers: [...authorizationClientProviders(McpGatewayConfig), GatewayAuthorization],
  exports: [GatewayAuthorization],
})
export class CallersModule {}
