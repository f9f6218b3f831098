// Body-parser failures on /mcp answered as JSON-RPC errors (the kit would answer problem details).
import type { NextFunction, Request, Response } from 'express';
import { RefusedInput } from '@stdreg/server-kit';
import { JsonRpcErrorCode, jsonRpcError } from './protocol';

const PARSE_ERROR = -32700;

export function mcpBodyErrors(error: unknown, request: Request, response: Response, next: NextFunction): void {
  if (request.path === '/mcp' && error instanceof RefusedInput) {
    return void response.status(400).json(jsonRpcError(JsonRpcErrorCode.InvalidRequest, `Invalid request: ${error.problem.message}.`));
  }
  const type = (error as { type?: unknown }).type;
  if (request.path !== '/mcp' || (type !== 'entity.parse.failed' && type !== 'entity.too.large')) return next(error);
  const tooLarge = type === 'entity.too.large';
  response
    .status(tooLarge ? 413 : 400)
    .json(
      jsonRpcError(
        tooLarge ? JsonRpcErrorCode.InvalidRequest : PARSE_ERROR,
        tooLarge ? 'Request body too large.' : 'Parse error: the body is not JSON.',
      ),
    );
}
