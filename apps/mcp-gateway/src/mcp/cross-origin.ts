// CORS on /mcp for browser-based MCP clients (the Inspector's direct mode, web agent hosts): a grant only to an origin
// the Origin check lets through, so the browser and the DNS-rebinding check agree on who may call.
import type { NextFunction, Request, Response } from 'express';
import { refuse } from './mcp.errors';
import { checkOrigin, type OriginPolicy } from './request-checks';

/** GET and DELETE are answered 405; the browser must be let through to see that, as the transport says a client should. */
const METHODS = 'POST, GET, DELETE';

/** The request header fields the gateway or its transport reads; the CORS-safelisted ones (Accept) need no naming. */
const REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
  'Last-Event-ID',
  'X-Organization-Id',
  'traceparent',
  'tracestate',
].join(', ');

/** What a browser client must read: the challenge that starts OAuth, the limits' wait, and the transport's own fields. */
const EXPOSED_HEADERS = ['WWW-Authenticate', 'Retry-After', 'Mcp-Session-Id', 'MCP-Protocol-Version'].join(', ');

const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function mcpCrossOrigin(policy: OriginPolicy) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const origin = request.headers.origin;
    if (origin === undefined) return next();
    response.vary('Origin');
    const check = checkOrigin(request.headers, policy);
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    if (!check.ok) return preflight ? refuse(response, check) : next();
    response.setHeader('Access-Control-Allow-Origin', origin);
    if (!preflight) {
      response.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return next();
    }
    response.setHeader('Access-Control-Allow-Methods', METHODS);
    response.setHeader('Access-Control-Allow-Headers', REQUEST_HEADERS);
    response.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    response.status(204).end();
  };
}
