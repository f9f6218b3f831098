import { startGateway, type RunningGateway } from './support/gateway';

let gateway: RunningGateway;
beforeAll(async () => {
  // Nothing here reaches standards-api or identity.
  gateway = await startGateway({
    STANDARDS_API_URL: 'http://127.0.0.1:9',
    IDENTITY_URL: 'http://127.0.0.1:9',
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
  });
});
afterAll(() => gateway.close());

/** Paths and methods no route takes: beside the MCP endpoint, the metadata documents and the health routes. */
const UNKNOWN: [method: string, path: string][] = [
  ['GET', '/'],
  ['GET', '/x'],
  ['POST', '/x'],
  ['OPTIONS', '/x'],
  ['HEAD', '/x'],
  ['GET', '/mcp/x'],
  ['POST', '/mcp/x'],
  ['GET', '/.well-known/x'],
  ['DELETE', '/healthz'],
  ['PUT', '/metrics'],
];

/** The problem's code, or the text itself when it is not JSON. */
function codeOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { code?: unknown }).code;
  } catch {
    return text.slice(0, 40);
  }
}

describe('a request no route takes', () => {
  it('is answered 404 route_not_found as problem details, with the security headers and no-store', async () => {
    const wrong: unknown[] = [];
    for (const [method, path] of UNKNOWN) {
      const answer = await fetch(`${gateway.url}${path}`, { method });
      const text = await answer.text();
      const seen = {
        status: answer.status,
        type: answer.headers.get('content-type'),
        cache: answer.headers.get('cache-control'),
        sniff: answer.headers.get('x-content-type-options'),
        body: method === 'HEAD' ? undefined : codeOf(text),
      };
      const expected = {
        status: 404,
        type: 'application/problem+json; charset=utf-8',
        cache: 'no-store',
        sniff: 'nosniff',
        body: method === 'HEAD' ? undefined : 'route_not_found',
      };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push({ method, path, ...seen });
    }
    expect(wrong).toEqual([]);
    const answer = await fetch(`${gateway.url}/x?y=1`);
    expect(await answer.json()).toMatchObject({ title: 'No such route', status: 404, detail: 'No route for GET /x.' });
  });
});
