// CORS on /mcp for browser-based MCP clients: raw preflights and answers, then a real browser (Chromium, never a
// downloaded one) on a page of an allowed origin and of another origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { findChromium } from '@stdreg/server-kit/testing';
import { startGateway, type RunningGateway } from './support/gateway';

let gateway: RunningGateway;
let pages: Server;
let allowedOrigin: string;
let otherOrigin: string;
let browser: { page: Page; close(): Promise<void> };

/** A blank page, the agent host a browser client runs in; listening on two ports, two origins. */
async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  pages = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>host</title>'));
  const other = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title>'),
  );
  allowedOrigin = `http://localhost:${await listen(pages)}`;
  otherOrigin = `http://localhost:${await listen(other)}`;
  pages.on('close', () => other.close());
  // Nothing here reaches standards-api or identity.
  gateway = await startGateway({
    STANDARDS_API_URL: 'http://127.0.0.1:9',
    IDENTITY_URL: 'http://127.0.0.1:9',
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    MCP_ALLOWED_ORIGINS: allowedOrigin,
  });
  const found = await findChromium();
  // The packaged browser's own arguments turn the same-origin policy off; this test is about that policy.
  const args = found.args.filter((arg) => arg !== '--disable-web-security');
  const context = await chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args,
  });
  browser = { page: await context.newPage(), close: () => context.close() };
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'web', version: '1' } },
};
const toolCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'draft_split_project', arguments: {} } };

function preflight(origin: string, method = 'POST', headers = 'authorization, content-type, mcp-protocol-version'): Promise<Response> {
  return fetch(gateway.mcpUrl, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const listOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

describe('CORS preflights on /mcp', () => {
  it('grant an allowed origin POST (and GET and DELETE, to reach their 405) with every request header the gateway reads', async () => {
    const granted = await preflight(allowedOrigin);
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(granted.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listOf(granted.headers.get('vary'))).toContain('origin');
    expect(listOf(granted.headers.get('access-control-allow-methods'))).toEqual(['post', 'get', 'delete']);
    expect(listOf(granted.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'last-event-id',
        'x-organization-id',
        'traceparent',
        'tracestate',
      ]),
    );
    expect(Number(granted.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('grant nothing to an origin that is not allowed, nor to an opaque one: 403 origin_not_allowed without a CORS header', async () => {
    for (const origin of [otherOrigin, 'null', 'http://127.0.0.1.evil.example']) {
      const refused = await preflight(origin);
      const grants = [...refused.headers.keys()].filter((name) => name.startsWith('access-control-'));
      expect({ origin, status: refused.status, grants }).toEqual({ origin, status: 403, grants: [] });
      expect(await refused.json()).toMatchObject({ error: { data: { 'stdreg.dev/refusal': { code: 'origin_not_allowed' } } } });
    }
  });

  it('leave an OPTIONS that is no preflight to the 405 every other method gets', async () => {
    const plain = await fetch(gateway.mcpUrl, { method: 'OPTIONS' });
    expect(plain.status).toBe(405);
    expect(plain.headers.get('allow')).toBe('POST');
  });
});

describe('answers to an allowed origin', () => {
  it('carry the grant and expose the challenge, Retry-After and the transport headers, refusals and parse errors too', async () => {
    const answers = [
      await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, origin: allowedOrigin }, body: JSON.stringify(initialize) }),
      await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, origin: allowedOrigin }, body: JSON.stringify(toolCall) }),
      await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, origin: allowedOrigin }, body: '{"jsonrpc":' }),
      await fetch(gateway.mcpUrl, { method: 'GET', headers: { origin: allowedOrigin, accept: 'text/event-stream' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 400, 405]);
    for (const answer of answers) {
      expect(answer.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
      expect(listOf(answer.headers.get('vary'))).toContain('origin');
      expect(listOf(answer.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining(['www-authenticate', 'retry-after', 'mcp-session-id', 'mcp-protocol-version']),
      );
    }
  });

  it('are not granted to another origin, which is refused 403 as before', async () => {
    const refused = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: otherOrigin },
      body: JSON.stringify(initialize),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('a browser client', () => {
  /** What a page's script gets from the gateway: the answers it may read, or the network error CORS makes of the rest. */
  async function fromPage(origin: string) {
    const { page } = browser;
    await page.goto(`${origin}/`);
    return await page.evaluate(
      async ({ mcpUrl, headers, initialize, toolCall }) => {
        const post = (body: unknown, extra: Record<string, string> = {}) =>
          fetch(mcpUrl, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
        try {
          const started = await post(initialize, { authorization: 'Bearer stdreg_app_not_a_real_key' });
          const refused = await post(toolCall);
          const stream = await fetch(mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
          return {
            initialize: {
              status: started.status,
              version: ((await started.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
            },
            toolCall: { status: refused.status, challenge: refused.headers.get('www-authenticate') },
            stream: stream.status,
          };
        } catch (error) {
          return { failed: String(error) };
        }
      },
      { mcpUrl: gateway.mcpUrl, headers: MCP_HEADERS, initialize, toolCall },
    );
  }

  it('on an allowed origin initializes, reads the 401 challenge that starts OAuth, and sees the 405 of GET', async () => {
    expect(await fromPage(allowedOrigin)).toEqual({
      initialize: { status: 200, version: '2025-11-25' },
      toolCall: {
        status: 401,
        challenge: expect.stringMatching(
          /^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
        ),
      },
      stream: 405,
    });
  });

  it('on another origin gets nothing: the browser refuses the answers to its script', async () => {
    expect(await fromPage(otherOrigin)).toEqual({ failed: expect.stringMatching(/TypeError: Failed to fetch/) });
  });
});
