// Prometheus metrics of a service process, in the text exposition format at GET /metrics.
// One registry per process (a service is one process); labels are bounded: route templates, never raw paths.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type AuthorizationOutcome = 'allow' | 'deny' | 'unavailable';
/** `asked`: a service asking identity (authz-client); `decided`: identity answering. */
export type AuthorizationSide = 'asked' | 'decided';

const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its response finishing, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const authorizationDecisions = new Counter({
  name: 'authorization_decisions_total',
  help: 'Authorization decisions by outcome; side=asked in a service asking identity, side=decided in identity',
  labelNames: ['side', 'outcome'] as const,
  registers: [registry],
});
const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests refused with 429 by a rate-limit bucket, by bucket kind',
  labelNames: ['bucket'] as const,
  registers: [registry],
});
const parkedEvents = new Counter({
  name: 'outbox_events_parked_total',
  help: 'Outbox events parked after the receiver kept refusing them (they wait for an operator), by relay',
  labelNames: ['relay'] as const,
  registers: [registry],
});

/** One authorization decision, counted where it is asked for (authz-client) and where it is made (identity). */
export function recordAuthorizationDecision(side: AuthorizationSide, outcome: AuthorizationOutcome): void {
  authorizationDecisions.inc({ side, outcome });
}

/** Counts identity's answer on its way out (`.then(countDecided)`) and passes it on. */
export function countDecided<T extends { decision: 'allow' | 'deny' }>(answer: T): T {
  recordAuthorizationDecision('decided', answer.decision);
  return answer;
}

/** A request refused with 429 by a rate-limit bucket (`key`, `waitlist`, ...). */
export function recordRateLimitRejection(bucket: string): void {
  rateLimitRejections.inc({ bucket });
}

/** An outbox event parked by a relay (`event-handover`, ...): the receiver kept refusing it. */
export function recordParkedEvent(relay: string): void {
  parkedEvents.inc({ relay });
}

/** The whole exposition text, as GET /metrics serves it. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}

/** A request after Express routing: `route.path` is the matched template. */
export interface RoutedRequest extends IncomingMessage {
  baseUrl?: string;
  route?: { path?: unknown };
}

/**
 * Express middleware: counts and times every response by its route template (`/api/v2/standards/:sectionId`),
 * `unmatched` when no route took it, and serves GET /metrics.
 */
export function metricsMiddleware(req: RoutedRequest, res: ServerResponse, next: () => void): void {
  if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?'))) {
    void serveMetrics(res);
    return;
  }
  const stop = httpDuration.startTimer();
  res.once('finish', () => {
    const labels = { method: req.method ?? 'UNKNOWN', route: routeTemplate(req), status: String(res.statusCode) };
    httpRequests.inc(labels);
    stop(labels);
  });
  next();
}

/** The route template that answered (`/api/v2/standards/:sectionId`), or `unmatched`: a bounded label. */
export function routeTemplate(req: RoutedRequest): string {
  const template = req.route?.path;
  return typeof template === 'string' ? `${req.baseUrl ?? ''}${template}` : 'unmatched';
}

async function serveMetrics(res: ServerResponse): Promise<void> {
  try {
    const body = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(body);
  } catch {
    res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n');
  }
}
