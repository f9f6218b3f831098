import { Module } from '@nestjs/common';
import { ProtectedResourceController } from './protected-resource.controller';
import { ProtectedResourceService } from './protected-resource.service';

@Module({
  controllers: [ProtectedResourceController],
  providers: [ProtectedResourceService],
  exports: [ProtectedResourceService],
})
export class ProtectedResourceModule {}
