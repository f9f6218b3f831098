import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { continueTrace, traceHeaders, type TraceContext } from '../observability/trace-context';

export interface RequestContext {
  requestId: string;
  trace?: TraceContext;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Express middleware: adopts a sane incoming X-Request-Id or makes one, continues the W3C trace of an
 * incoming `traceparent` or starts one, and scopes both to the request.
 */
export function requestContextMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  const traceparent = req.headers['traceparent'];
  const tracestate = req.headers['tracestate'];
  const trace = continueTrace(
    typeof traceparent === 'string' ? traceparent : undefined,
    typeof tracestate === 'string' ? tracestate : undefined,
  );
  res.setHeader('X-Request-Id', requestId);
  requestContext.run({ requestId, trace }, next);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export function currentTraceId(): string | undefined {
  return requestContext.getStore()?.trace?.traceId;
}

/**
 * Headers for a call to another service made while handling a request: `traceparent` (this request's
 * trace, with this service's span as the parent) and `tracestate`; empty outside a request.
 * Every outgoing HTTP call to a platform service adds them.
 */
export function outgoingTraceHeaders(): Record<string, string> {
  const trace = requestContext.getStore()?.trace;
  return trace ? traceHeaders(trace) : {};
}
