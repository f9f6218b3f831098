import { Module } from '@nestjs/common';
import { AuthorizationModule } from '../authorization/authorization.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { ResourceDirectory } from './resource-directory';
import { ResourceReader } from './resource-reader';

@Module({
  imports: [AuthorizationModule, UpstreamModule],
  providers: [ResourceDirectory, ResourceReader],
  exports: [ResourceDirectory, ResourceReader],
})
export class ResourcesModule {}
