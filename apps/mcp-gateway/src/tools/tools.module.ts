import { Module } from '@nestjs/common';
import { CallersModule } from '../callers/callers.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { ToolRunner } from './tool-runner';

@Module({
  imports: [CallersModule, UpstreamModule],
  providers: [ToolRunner],
  exports: [ToolRunner],
})
export class ToolsModule {}
