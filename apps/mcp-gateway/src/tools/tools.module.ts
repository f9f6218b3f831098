import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { ToolRunner } from './tool-runner';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule, CallersModule, UpstreamModule],
  providers: [ToolRunner],
  exports: [ToolRunner],
})
export class ToolsModule {}
