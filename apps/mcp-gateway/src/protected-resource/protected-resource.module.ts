import { Module } from '@nestjs/common';
import { ProtectedResourceController } from './protected-resource.controller';
import { ProtectedResourceService } from './protected-resource.service';
import { McpGatewayConfigModule } from '../config/mcp-gateway-config.module';

@Module({
  imports: [McpGatewayConfigModule],
  controllers: [ProtectedResourceController],
  providers: [ProtectedResourceService],
  exports: [ProtectedResourceService],
})
export class ProtectedResourceModule {}
