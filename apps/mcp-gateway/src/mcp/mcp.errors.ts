// Requests refused over HTTP before any MCP server sees them: each refusal's code, mapped once to its HTTP status.
import type { ServerResponse } from 'node:http';
import type { GatewayRefusalCode } from '@stdreg/contracts';
import type { Response } from 'express';
import type { LimitCheck } from '../rate-limit/tool-call-limiter';
import { JsonRpcErrorCode, jsonRpcError } from './protocol';

export type HttpRefusalCode = Extract<
  GatewayRefusalCode,
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'protocol_version_unsupported'
  | 'credential_too_long'
  | 'credential_required'
  | 'credential_invalid'
  | 'scope_insufficient'
  | 'rate_limited'
  | 'rate_limiter_unavailable'
  | 'method_not_allowed'
>;

/** `challenge`: the WWW-Authenticate value of a 401 or 403; `retryAfterSeconds`: the Retry-After of a 429 or 503. */
export interface HttpRefusal {
  code: HttpRefusalCode;
  message: string;
  challenge?: string;
  retryAfterSeconds?: number;
}

/** The one place an HTTP refusal's code becomes a status: a new code does not compile until it is mapped. */
export function httpStatusOf(code: HttpRefusalCode): 400 | 401 | 403 | 405 | 429 | 503 {
  switch (code) {
    case 'protocol_version_unsupported':
      return 400;
    case 'credential_too_long':
    case 'credential_required':
    case 'credential_invalid':
      return 401;
    case 'host_not_allowed':
    case 'origin_not_allowed':
    case 'scope_insufficient':
      return 403;
    case 'method_not_allowed':
      return 405;
    case 'rate_limited':
      return 429;
    case 'rate_limiter_unavailable':
      return 503;
  }
}

/** A tool-call limit's refusal. */
export function limitRefusal(check: Exclude<LimitCheck, { ok: true }>): HttpRefusal {
  if (check.limitedBy === 'unavailable') {
    return {
      code: 'rate_limiter_unavailable',
      message: 'The tool-call rate limiter is unavailable; retry shortly.',
      retryAfterSeconds: check.retryAfterSeconds,
    };
  }
  return {
    code: 'rate_limited',
    message: `Too many tool calls for this ${check.limitedBy}; retry in ${check.retryAfterSeconds} s.`,
    retryAfterSeconds: check.retryAfterSeconds,
  };
}

const METHOD_NOT_ALLOWED: HttpRefusal = {
  code: 'method_not_allowed',
  message: 'Method not allowed: this stateless server answers POST only.',
};

/** Answers a refusal: its status, its challenge or Retry-After, and a JSON-RPC error naming its code in `data`. */
export function refuse(response: ServerResponse, refusal: HttpRefusal): void {
  if (refusal.challenge !== undefined) response.setHeader('WWW-Authenticate', refusal.challenge);
  if (refusal.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(refusal.retryAfterSeconds));
  response.statusCode = httpStatusOf(refusal.code);
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(jsonRpcError(JsonRpcErrorCode.Refused, refusal.message, refusal.code)));
}

/** Any method but POST on /mcp: the gateway keeps no sessions, so there is no stream to GET or session to DELETE. */
export function refuseMethod(response: Response): void {
  response
    .status(httpStatusOf(METHOD_NOT_ALLOWED.code))
    .setHeader('Allow', 'POST')
    .json(jsonRpcError(JsonRpcErrorCode.Refused, METHOD_NOT_ALLOWED.message, METHOD_NOT_ALLOWED.code));
}
