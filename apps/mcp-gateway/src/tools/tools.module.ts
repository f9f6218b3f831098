import { Module } from '@nestjs/common';
import { AuthorizationModule } from '../authorization/authorization.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { ToolRunner } from './tool-runner';

@Module({
  imports: [AuthorizationModule, UpstreamModule],
  providers: [ToolRunner],
  exports: [ToolRunner],
})
export class ToolsModule {}
