// What the kit's per-request observability costs in CPU: request context with W3C trace, metrics
// (counter + histogram by route template) and the request log (at info, so off), run on synthetic
// requests in a loop, against the same loop without them. Bundled and run by observability.bench.mjs.
import { EventEmitter } from 'node:events';
import { JsonLogger, metricsMiddleware, requestContextMiddleware, requestLogMiddleware } from '@stdreg/server-kit';

type Next = () => void;
type Middleware = (req: never, res: never, next: Next) => void;

const ROUTES = ['/v1/decisions', '/api/v2/standards/:sectionId', '/api/v2/split-projects/:id'];
const requestLog = requestLogMiddleware(new JsonLogger('bench', 'info')) as Middleware;
const kit: Middleware[] = [requestContextMiddleware as Middleware, metricsMiddleware as Middleware, requestLog];

function once(i: number, chain: Middleware[]): void {
  const req = {
    method: 'POST',
    url: '/v1/decisions',
    headers: i % 2 === 0 ? { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } : {},
    route: { path: ROUTES[i % ROUTES.length] },
    baseUrl: '',
  };
  const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader: () => undefined });
  const run = (index: number): void => {
    if (index === chain.length) return void res.emit('finish');
    chain[index]!(req as never, res as never, () => run(index + 1));
  };
  run(0);
}

function microsecondsPerRequest(chain: Middleware[], n: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) once(i, chain);
  return Number(process.hrtime.bigint() - started) / n / 1000;
}

const N = 200_000;
const rounds: { without: number; with: number }[] = [];
microsecondsPerRequest(kit, N); // warm-up
for (let round = 0; round < 5; round++) rounds.push({ without: microsecondsPerRequest([], N), with: microsecondsPerRequest(kit, N) });
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const result = {
  requests: N,
  rounds: rounds.length,
  withoutUs: median(rounds.map((r) => r.without)),
  withUs: median(rounds.map((r) => r.with)),
};
process.stdout.write(JSON.stringify({ ...result, overheadUs: result.withUs - result.withoutUs }) + '\n');
