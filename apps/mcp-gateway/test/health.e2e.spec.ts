import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { McpGatewayConfig } from '../src/config/mcp-gateway.config';
import { MCP_GATEWAY } from '../src/mcp-gateway.service';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('mcp-gateway health', () => {
  const upstream = createServer((req, res) => {
    res.statusCode = req.url === '/healthz' ? 200 : 404;
    res.end('{"status":"ok"}');
  });
  const closedPort = createServer();
  let upstreamUrl: string;
  let deadUrl: string;

  beforeAll(async () => {
    upstreamUrl = await listen(upstream);
    deadUrl = await listen(closedPort);
    await new Promise((resolve) => closedPort.close(resolve));
  });
  afterAll(() => new Promise((resolve) => upstream.close(resolve)));

  async function gateway(env: Record<string, string>): Promise<NestExpressApplication> {
    const app = await createServiceApp(MCP_GATEWAY, loadConfig(McpGatewayConfig, { LOG_LEVEL: 'error', ...env }));
    await app.init();
    return app;
  }

  it('is ready when standards-api and identity answer', async () => {
    const app = await gateway({ STANDARDS_API_URL: upstreamUrl, IDENTITY_URL: upstreamUrl });
    await request(app.getHttpServer()).get('/healthz').expect(200, { status: 'ok' });
    await request(app.getHttpServer())
      .get('/readyz')
      .expect(200, { status: 'ready', checks: {}, downstream: { 'standards-api': 'up', identity: 'up' } });
    await app.close();
  });

  it('stays ready when an upstream is unreachable (as standards-api does), and says which', async () => {
    const app = await gateway({ STANDARDS_API_URL: upstreamUrl, IDENTITY_URL: deadUrl });
    await request(app.getHttpServer()).get('/healthz').expect(200);
    await request(app.getHttpServer())
      .get('/readyz')
      .expect(200, { status: 'ready', checks: {}, downstream: { 'standards-api': 'up', identity: 'down' } });
    await app.close();
  });
});
