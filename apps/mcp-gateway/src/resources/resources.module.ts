import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { ResourceDirectory } from './resource-directory';
import { ResourceReader } from './resource-reader';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule, CallersModule, UpstreamModule],
  providers: [ResourceDirectory, ResourceReader],
  exports: [ResourceDirectory, ResourceReader],
})
export class ResourcesModule {}
