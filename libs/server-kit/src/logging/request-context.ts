import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Express middleware: adopts a sane incoming X-Request-Id or makes one, and scopes it to the request. */
export function requestContextMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  requestContext.run({ requestId }, next);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
