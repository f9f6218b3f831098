import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SUBJECT_CHANGE_EVENT, SUBJECT_CHANGES_READY_EVENT, SubjectChangeAppliedDto, type SubjectChangesReadyDto } from '@stdreg/contracts';
import { IdentityConfig } from '../../platform/config/identity.config';
import { ServiceAuth } from '../callers/caller.decorators';
import { SubjectChangeChannel } from './subject-change-channel';
import { subjectChangesUnavailable } from './subject-changes.errors';

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** Where services follow subject changes (server-sent events) and say they applied one: service routes, not part of the partner API. */
@ApiExcludeController()
@ServiceAuth('decisions')
@Controller('subject-changes')
export class SubjectChangesController {
  constructor(
    private readonly channel: SubjectChangeChannel,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  @Get()
  follow(@Req() request: Request, @Res() response: Response): void {
    const stream = this.channel.listen({
      change: (change) => response.write(event(SUBJECT_CHANGE_EVENT, change)),
      closed: () => end(),
    });
    if (!stream) throw subjectChangesUnavailable();
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    response.flushHeaders();
    request.socket.setNoDelay(true);
    const ready: SubjectChangesReadyDto = { heartbeatMs: this.config.SUBJECT_CHANGES_HEARTBEAT_MS, streamId: stream.streamId };
    response.write(event(SUBJECT_CHANGES_READY_EVENT, ready));
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), this.config.SUBJECT_CHANGES_HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      response.end();
    };
    request.on('close', () => {
      stream.stop();
      end();
    });
  }

  @Post('applied')
  @HttpCode(204)
  applied(@Body() word: SubjectChangeAppliedDto): void {
    this.channel.applied(word);
  }
}
