import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { continueTrace, requestContext } from '@stdreg/server-kit';
import { requestJson } from './upstream-result';

describe('upstream requests', () => {
  const seen: IncomingHttpHeaders[] = [];
  const upstream = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/problem') {
      res.statusCode = 422;
      res.end(JSON.stringify({ detail: 'The scenario is invalid.', errors: [{ field: 'scenario.currency', message: 'must be EUR' }] }));
    } else if (req.url === '/garbage') {
      res.end('<html>');
    } else if (req.url === '/stalled' || req.url === '/cut') {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"project":');
      if (req.url === '/cut') setTimeout(() => req.socket.destroy(), 20);
    } else {
      res.end('{"ok":true}');
    }
  });
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    upstream.closeAllConnections();
    return new Promise((resolve) => upstream.close(resolve));
  });

  const get = (path: string) => requestJson('standards-api', { method: 'GET', url: new URL(path, base), timeoutMs: 1000 });

  it('carries the trace of the request being served on to the upstream', async () => {
    const trace = continueTrace('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    await requestContext.run({ requestId: 'req-1', trace }, () => get('/ok'));
    expect(seen.at(-1)!['traceparent']).toBe(`00-4bf92f3577b34da6a3ce929d0e0e4736-${trace.spanId}-01`);
  });

  it('says what the upstream said was wrong, field by field', async () => {
    expect(await get('/problem')).toEqual({ ok: false, status: 422, message: 'The scenario is invalid. (scenario.currency: must be EUR)' });
  });

  it('turns a body that is not JSON into 502 and an unreachable upstream into 503', async () => {
    expect(await get('/garbage')).toMatchObject({ ok: false, status: 502 });
    expect(await requestJson('identity', { method: 'GET', url: new URL('http://127.0.0.1:9/x'), timeoutMs: 500 })).toMatchObject({
      ok: false,
      status: 503,
      message: expect.stringContaining('identity is unreachable'),
    });
  });

  it('turns an answer cut short after its headers into 503, as an upstream that did not answer', async () => {
    for (const path of ['/stalled', '/cut']) {
      const post = requestJson('standards-api', { method: 'POST', url: new URL(path, base), body: {}, timeoutMs: 300 });
      await expect(post).resolves.toMatchObject({ ok: false, status: 503, message: expect.stringContaining('cut short') });
    }
  });
});
