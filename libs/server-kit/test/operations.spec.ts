import { jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createServiceApp,
  downstreamServiceCheck,
  handleShutdownSignals,
  JsonLogger,
  loadConfig,
  outgoingTraceHeaders,
  recordAuthorizationDecision,
  recordRateLimitRejection,
  requestContextMiddleware,
} from '../src';
import { EXAMPLE_SERVICE, ExampleConfig, exampleChecks, Gate, slowGate } from './support/example-service';

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

/** Runs `work` and answers the JSON lines written on stdout meanwhile. */
async function logLinesOf(work: () => Promise<unknown>): Promise<{ lines: Record<string, unknown>[]; raw: string }> {
  const chunks: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await work();
    // The request log is written when the response finishes, a tick after the client has it.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    write.mockRestore();
  }
  return { lines: chunks.map((line) => JSON.parse(line) as Record<string, unknown>), raw: chunks.join('') };
}

describe('the request log (LOG_LEVEL=debug)', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample('debug')));
  afterAll(() => example.app.close());

  it('writes method, route template, status and time, never a credential, a cookie or the raw path', async () => {
    const { lines, raw } = await logLinesOf(() =>
      fetch(`${example.url}/api/slow-not/xyz-raw-path?token=q-s3cret`, {
        headers: { Authorization: 'Bearer stdreg_app_abc_S3CRET', Cookie: '_session=c00kie', 'x-request-id': 'req-log-1' },
      }),
    );
    const answered = lines.filter((entry) => entry['msg'] === 'request answered');
    expect(answered).toHaveLength(1);
    expect(Object.keys(answered[0]!).sort()).toEqual(
      ['context', 'durationMs', 'level', 'method', 'msg', 'requestId', 'route', 'service', 'status', 'time', 'traceId'].sort(),
    );
    expect(answered[0]).toMatchObject({ method: 'GET', route: '/api*path', status: 404, requestId: 'req-log-1' });
    expect(raw).not.toMatch(/S3CRET|c00kie|q-s3cret|xyz-raw-path/);
  });
});

describe('log levels', () => {
  it('writes what is at or above LOG_LEVEL, and audit events whatever it says', async () => {
    const logger = new JsonLogger('example', 'warn');
    const { lines } = await logLinesOf(async () => {
      logger.debug('a debug line');
      logger.log('an info line');
      logger.warn('a warning');
      logger.error('an error');
      logger.fatal('a fatal error');
      logger.audit('an audit event', { actor: 'test' });
    });
    expect(lines.map((entry) => [entry['level'], entry['msg']])).toEqual([
      ['warn', 'a warning'],
      ['error', 'an error'],
      ['fatal', 'a fatal error'],
      ['info', 'an audit event'],
    ]);
  });
});

describe('credentials in log lines', () => {
  it('writes no API key secret, webhook secret, bearer credential or JWT, wherever in the line, and keeps the key prefix', async () => {
    const logger = new JsonLogger('example', 'debug');
    const key = 'stdreg_app_ms3zziexc5_hAolX3cpG1gp7T5mu4NrkWSvla6e3vIRnX64c0ktS_M';
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const { lines, raw } = await logLinesOf(async () => {
      logger.error(new Error(`upstream answered 401 to Authorization: Bearer ${jwt}`));
      logger.event('warn', `a key was sent in the body: ${key}`, { detail: { secret: webhookSecret, header: `bearer ${key}` } });
      logger.log('Bearer tokens are checked by identity; key stdreg_app_noisy_key is not a secret');
    });
    expect(lines).toHaveLength(3);
    expect(raw).not.toMatch(/hAolX3cp|eyJzdWIi|c2lnbmF0dXJl|MfKQ9r8G/);
    expect(lines[0]!['msg']).toBe('upstream answered 401 to Authorization: Bearer [redacted]');
    expect(lines[1]!['msg']).toBe('a key was sent in the body: stdreg_app_ms3zziexc5_[redacted]');
    expect(lines[1]!['detail']).toEqual({ secret: 'whsec_[redacted]', header: 'bearer [redacted]' });
    expect(lines[2]!['msg']).toBe('Bearer tokens are checked by identity; key stdreg_app_noisy_key is not a secret');
  });
});

describe('caller text in log lines', () => {
  it('cannot make a line look like two, or read in another order: every line break and bidirectional control is escaped', async () => {
    const logger = new JsonLogger('example', 'debug');
    const forged = '{"level":"error","msg":"forged"}';
    const hostile = [
      `a\r\n${forged}`,
      `b\u0085${forged}`,
      `c\u2028${forged}`,
      `d\u2029${forged}`,
      `e\u001b[2K\u000b\u000c\u001c${forged}`,
      'f\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c',
    ];
    const { lines, raw } = await logLinesOf(async () => {
      for (const text of hostile) logger.event('warn', text, { field: text });
    });
    // Split as the most eager readers split (Python's str.splitlines, JavaScript's line terminators, Unicode's NEL).
    expect(raw.split(/\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/).filter(Boolean)).toHaveLength(hostile.length);
    expect(raw.split('\n').join('')).not.toMatch(/[\u0000-\u001f\u0085\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
    expect(lines.map((line) => [line['msg'], line['field']])).toEqual(hostile.map((text) => [text, text]));
  });
});

describe('request ids', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample()));
  afterAll(() => example.app.close());

  it('adopts a sane incoming X-Request-Id and replaces anything else with a fresh one', async () => {
    const idOf = async (incoming: string) =>
      (await fetch(`${example.url}/healthz`, { headers: { 'x-request-id': incoming } })).headers.get('x-request-id');
    expect(await idOf('abc-123:x.y_z')).toBe('abc-123:x.y_z');
    for (const bad of ['a'.repeat(101), 'has space', '<script>', 'quote"d', 'tab\there', 'ünïcode']) {
      const answered = await idOf(bad);
      expect(answered).not.toBe(bad);
      expect(answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});

describe('requests answered before any route', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample()));
  afterAll(() => example.app.close());

  it('refuses a JSON body over 256 kB with 413 problem details', async () => {
    const response = await fetch(`${example.url}/api/items/large`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(300 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('refuses a JSON body in a charset or an encoding it cannot read with 415 problem details', async () => {
    for (const headers of [
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/json', 'content-encoding': 'compress' },
    ]) {
      const response = await fetch(`${example.url}/api/items/encoded`, { method: 'POST', headers, body: '{"text":"x"}' });
      expect(response.status).toBe(415);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    }
  });

  it('labels them unmatched in /metrics, never by their path', async () => {
    const response = await fetch(`${example.url}/api/items/unparsed-path-7`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    const text = await (await fetch(`${example.url}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="POST",route="unmatched",status="400"\} [1-9]/);
    expect(text).not.toContain('unparsed-path-7');
  });
});

describe('readiness', () => {
  let example: { app: NestExpressApplication; url: string };
  beforeAll(async () => (example = await startExample()));
  afterAll(() => example.app.close());
  afterEach(() => exampleChecks.splice(0));

  it('answers 503 within its time limit when a check never settles, naming it down', async () => {
    exampleChecks.push(
      { name: 'database', check: () => Promise.resolve() },
      { name: 'redis', check: () => new Promise<void>(() => undefined) },
    );
    const started = Date.now();
    const response = await fetch(`${example.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not_ready', checks: { database: 'up', redis: 'down' } });
  });

  it('reports a downstream service answering an error status as down, and stays ready', async () => {
    const downstream = createServer((_request, response) => response.writeHead(503).end('not ready'));
    await new Promise<void>((resolve) => downstream.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = downstream.address() as AddressInfo;
      exampleChecks.push(
        { name: 'database', check: () => Promise.resolve() },
        downstreamServiceCheck('identity', `http://127.0.0.1:${port}`),
      );
      const response = await fetch(`${example.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', checks: { database: 'up' }, downstream: { identity: 'down' } });
    } finally {
      await new Promise((resolve) => downstream.close(resolve));
    }
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

  it('takes a second signal soon after the first as the same stop, and one later as an order to exit at once', async () => {
    const { app, url } = await startExample();
    slowGate.current = new Gate();
    const inFlight = getOnce(`${url}/api/slow`);
    await slowGate.current.reached;
    const exit = jest.fn<(code: number) => void>();
    // A process group's SIGTERM and the one `npm start` passes on arrive together: one stop, finished cleanly.
    handleShutdownSignals(app, { logger: new JsonLogger('example', 'fatal'), timeoutMs: 10_000, exit, signals: ['SIGUSR2'] });
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(await getOnce(`${url}/healthz`)).toEqual({ error: 'ECONNREFUSED' });
      expect(exit).not.toHaveBeenCalled();
      slowGate.current.release();
      expect(await inFlight).toEqual({ status: 200, body: '{"done":true}' });
      while (exit.mock.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(exit.mock.calls).toEqual([[0]]);
    } finally {
      process.removeAllListeners('SIGUSR2');
    }

    const second = await startExample();
    slowGate.current = new Gate();
    const held = getOnce(`${second.url}/api/slow`);
    await slowGate.current.reached;
    const insist = jest.fn<(code: number) => void>();
    handleShutdownSignals(second.app, {
      logger: new JsonLogger('example', 'fatal'),
      timeoutMs: 10_000,
      exit: insist,
      signals: ['SIGUSR2'],
      sameStopMs: 0,
    });
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(insist.mock.calls).toEqual([[1]]);
    } finally {
      process.removeAllListeners('SIGUSR2');
      slowGate.current.release();
      await held;
    }
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
