import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { JsonRpcErrorCode, jsonRpcError } from './protocol';
import { McpEndpoint } from './mcp-endpoint.service';

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
    response
      .status(405)
      .setHeader('Allow', 'POST')
      .json(jsonRpcError(JsonRpcErrorCode.Refused, 'Method not allowed: this stateless server answers POST only.'));
  }
}
