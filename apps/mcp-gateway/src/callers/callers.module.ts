import { Module } from '@nestjs/common';
import { authorizationClientProviders } from '@stdreg/authz-client';
import { McpGatewayConfig } from '../config/mcp-gateway.config';
import { ProtectedResourceModule } from '../protected-resource/protected-resource.module';
import { CallerAuthentication } from './caller-authentication';
import { GatewayAuthorization } from './gateway-authorization';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

/** Who is calling the gateway: the request's caller authenticated once (CallerAuthentication), each operation authorized (GatewayAuthorization). */
@Module({
  imports: [McpGatewayConfigModule, ProtectedResourceModule],
  providers: [...authorizationClientProviders(McpGatewayConfig), GatewayAuthorization, CallerAuthentication],
  exports: [GatewayAuthorization, CallerAuthentication],
})
export class CallersModule {}
