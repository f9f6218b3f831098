import { Module } from '@nestjs/common';
import { authorizationClientProviders } from '@stdreg/authz-client';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { GatewayAuthorization } from './gateway-authorization';

@Module({
  providers: [...authorizationClientProviders(McpGatewayConfig), GatewayAuthorization],
  exports: [GatewayAuthorization],
})
export class CallersModule {}
