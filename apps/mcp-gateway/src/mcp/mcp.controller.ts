import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { McpEndpoint } from './mcp-endpoint.service';
import { refuseMethod } from './mcp.errors';

/** POST /mcp is the whole protocol; the gateway keeps no sessions, so there is no stream to GET or session to DELETE. */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @Post()
  handle(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.endpoint.handle(request, response);
  }

  @All()
  notAllowed(@Res() response: Response): void {
    refuseMethod(response);
  }
}
