import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ResourcesModule } from '../resources/resources.module';
import { ToolsModule } from '../tools/tools.module';
import { McpController } from './mcp.controller';
import { McpEndpoint } from './mcp-endpoint.service';
import { McpServerFactory } from './mcp-server.factory';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule, CallersModule, RateLimitModule, ResourcesModule, ToolsModule],
  controllers: [McpController],
  providers: [McpEndpoint, McpServerFactory],
})
export class McpModule {}
