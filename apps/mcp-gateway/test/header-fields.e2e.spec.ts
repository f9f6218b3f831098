import type { AddressInfo } from 'node:net';
import { rawHttpExchange } from '@stdreg/server-kit/testing';
import { startGateway, type RunningGateway } from './support/gateway';

let gateway: RunningGateway;
let port: number;
beforeAll(async () => {
  // Nothing here reaches standards-api or identity.
  gateway = await startGateway({
    STANDARDS_API_URL: 'http://127.0.0.1:9',
    IDENTITY_URL: 'http://127.0.0.1:9',
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
  });
  port = (gateway.app.getHttpServer().address() as AddressInfo).port;
});
afterAll(() => gateway.close());

const codeOf = (body: string) => /"code":"([a-z_.]+)"/.exec(body)?.[1];

function get(path: string, headerLines: string): Promise<{ status: number; code: string | undefined }> {
  return rawHttpExchange(port, `GET ${path} HTTP/1.1\r\n${headerLines}Connection: close\r\n\r\n`).then((answer) => ({
    status: answer.status,
    code: codeOf(answer.body),
  }));
}

describe('header fields a request may hold once', () => {
  const host = () => `Host: 127.0.0.1:${port}\r\n`;
  const paths = ['/healthz', '/.well-known/oauth-protected-resource/mcp'];

  it('serves a request that holds each once', async () => {
    for (const path of paths) expect(await get(path, `${host()}Authorization: Bearer a\r\n`)).toMatchObject({ status: 200 });
  });

  it('refuses two Host lines (RFC 9112 3.2), two Authorization lines or two Content-Type lines with 400', async () => {
    const twice = [
      `${host()}Host: elsewhere.example\r\n`,
      `Host: elsewhere.example\r\n${host()}`,
      `${host()}Authorization: Bearer a\r\nAuthorization: Bearer b\r\n`,
      `${host()}authorization: Bearer a\r\nAUTHORIZATION: Bearer a\r\n`,
      `${host()}Content-Type: application/json\r\nContent-Type: text/plain\r\n`,
    ];
    const seen = [];
    for (const path of paths) for (const lines of twice) seen.push(await get(path, lines));
    expect(seen).toEqual(Array.from({ length: seen.length }, () => ({ status: 400, code: 'validation_failed' })));
  });

  it('refuses a Host value that is no host with an optional port, and accepts the forms RFC 3986 allows', async () => {
    for (const value of ['a b', 'a/b', 'a@b', 'a:b:c', '[::1', 'a:80x'])
      expect([value, await get('/healthz', `Host: ${value}\r\n`)]).toEqual([value, { status: 400, code: 'validation_failed' }]);
    for (const value of ['', 'localhost', '127.0.0.1:1', '[::1]:3002', 'xn--fiq228c.example:443', 'a-b.example.'])
      expect([value, (await get('/healthz', `Host: ${value}\r\n`)).status]).toEqual([value, 200]);
  });
});
