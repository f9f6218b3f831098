import { jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createServiceApp,
  handleShutdownSignals,
  JsonLogger,
  loadConfig,
  outgoingTraceHeaders,
  recordAuthorizationDecision,
  recordRateLimitRejection,
  requestContextMiddleware,
} from '../src';
import { EXAMPLE_SERVICE, ExampleConfig, Gate, slowGate } from './support/example-service';

async function startExample(logLevel = 'warn'): Promise<{ app: NestExpressApplication; url: string }> {
  const app = await createServiceApp(EXAMPLE_SERVICE, loadConfig(ExampleConfig, { LOG_LEVEL: logLevel }));
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

/** One request on a connection of its own (no keep-alive pool), answering the status and body or the connection error. */
function getOnce(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

async function metricValue(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics at /metrics', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample()));
  afterAll(() => example.app.close());

  it('counts and times requests by route template and status, never by raw path', async () => {
    const series = 'http_requests_total{method="GET",route="/api/items/:id",status="200"}';
    const before = await metricValue(example.url, series);
    for (const id of ['first', 'second', 'third']) expect((await fetch(`${example.url}/api/items/${id}`)).status).toBe(200);
    expect((await fetch(`${example.url}/api/nowhere/at-all`)).status).toBe(404);

    const response = await fetch(`${example.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(await metricValue(example.url, series)).toBe(before + 3);
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/items/:id",status="200"}');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/items/:id",status="200"}');
    // Nest answers unknown paths under the prefix from a catch-all route: a template too.
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\*path",status="404"\} [1-9]/);
    expect(text).not.toContain('/api/items/first');
    expect(text).not.toContain('nowhere');
  });

  it('exposes authorization decisions by outcome and rate-limit rejections by bucket', async () => {
    const allowed = await metricValue(example.url, 'authorization_decisions_total{side="asked",outcome="allow"}');
    const rejected = await metricValue(example.url, 'rate_limit_rejections_total{bucket="key"}');
    recordAuthorizationDecision('asked', 'allow');
    recordAuthorizationDecision('asked', 'allow');
    recordRateLimitRejection('key');
    expect(await metricValue(example.url, 'authorization_decisions_total{side="asked",outcome="allow"}')).toBe(allowed + 2);
    expect(await metricValue(example.url, 'rate_limit_rejections_total{bucket="key"}')).toBe(rejected + 1);
  });
});

describe('trace context in logs and outgoing calls', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample('info')));
  afterAll(() => example.app.close());

  it('writes the trace id of an incoming traceparent on every log line of the request', async () => {
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const response = await fetch(`${example.url}/api/items/traced`, {
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-request-id': 'req-traced-1' },
      });
      expect(response.status).toBe(200);
    } finally {
      write.mockRestore();
    }
    const entry = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e['msg'] === 'item traced');
    expect(entry).toMatchObject({ requestId: 'req-traced-1', traceId: '0af7651916cd43dd8448eb211c80319c', service: 'example' });
  });

  it('gives outgoing calls the request trace with this service as the parent, and nothing outside a request', () => {
    expect(outgoingTraceHeaders()).toEqual({});
    const headers: Record<string, string> = {};
    const request = { headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };
    const response = { setHeader: () => undefined };
    requestContextMiddleware(request as never, response as never, () => Object.assign(headers, outgoingTraceHeaders()));
    expect(headers['traceparent']).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(headers['traceparent']).not.toContain('b7ad6b7169203331');
  });
});

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, finishes the request in flight, then exits 0', async () => {
    const { app, url } = await startExample();
    slowGate.current = new Gate();
    // A keep-alive connection, as a proxy in front keeps them: it is closed after its response.
    const inFlight = fetch(`${url}/api/slow`).then(async (r) => ({ status: r.status, body: await r.text() }));
    await slowGate.current.reached;

    const exit = jest.fn<(code: number) => void>();
    const shutdown = handleShutdownSignals(app, { logger: new JsonLogger('example', 'error'), timeoutMs: 10_000, exit, signals: [] })(
      'SIGTERM',
    );
    expect(await getOnce(`${url}/healthz`)).toEqual({ error: 'ECONNREFUSED' });
    expect(exit).not.toHaveBeenCalled();

    slowGate.current.release();
    expect(await inFlight).toEqual({ status: 200, body: '{"done":true}' });
    await shutdown;
    expect(exit.mock.calls).toEqual([[0]]);
  });

  it('exits 1 when the requests in flight outlast the shutdown timeout', async () => {
    const { app, url } = await startExample();
    slowGate.current = new Gate();
    const inFlight = getOnce(`${url}/api/slow`);
    await slowGate.current.reached;

    let exited!: (code: number) => void;
    const firstExit = new Promise<number>((resolve) => (exited = resolve));
    handleShutdownSignals(app, { logger: new JsonLogger('example', 'fatal'), timeoutMs: 200, exit: (code) => exited(code), signals: [] })(
      'SIGTERM',
    );
    expect(await firstExit).toBe(1);

    slowGate.current.release();
    await inFlight;
  });
});
