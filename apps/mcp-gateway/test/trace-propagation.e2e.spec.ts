import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type RunningGateway } from './support/gateway';

describe('trace propagation', () => {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  // A stand-in for standards-api that records what reaches it: only the trace headers are under test here.
  const standardsApi = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/api/v2/manifest' ? { digest: 'sha256:0' } : { snapshotId: 'brand-test' }));
  });
  let gateway: RunningGateway;

  beforeAll(async () => {
    await new Promise<void>((resolve) => standardsApi.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway({
      STANDARDS_API_URL: `http://127.0.0.1:${(standardsApi.address() as AddressInfo).port}`,
      IDENTITY_URL: 'http://127.0.0.1:9',
    });
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((resolve) => standardsApi.close(resolve));
  });

  it("passes the caller's trace on to standards-api from inside the MCP handlers", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'stdreg://brand/current' } }),
    });
    expect(((await response.json()) as { result: { contents: { text: string }[] } }).result.contents[0]!.text).toContain('brand-test');
    expect(seen.map((request) => request.url)).toEqual(['/api/v2/manifest', '/api/v2/brand/current']);
    for (const request of seen) expect(request.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});
