import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { rawHttpExchange } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let running: RunningIdentity;
beforeAll(async () => {
  running = await startIdentity();
}, 120_000);
afterAll(() => running.close());

type Method = 'get' | 'post' | 'put' | 'delete' | 'options' | 'head';

/**
 * Paths and methods no route takes: outside the API's prefix, the prefix itself, beside the health routes and the
 * metadata document, and under the OpenID Provider's mount (`/oidc`), where none of the provider's routes takes them.
 */
const UNKNOWN: [Method, string][] = [
  ['get', '/'],
  ['get', '/x'],
  ['post', '/x'],
  ['options', '/x'],
  ['head', '/x'],
  ['get', '/v1'],
  ['get', '/v1/x'],
  ['put', '/v1/users'],
  ['delete', '/healthz'],
  ['get', '/.well-known/x'],
  ['get', '/.well-known/oauth-authorization-server/oidc/x'],
  ['get', '/oidc'],
  ['get', '/oidc/x'],
  ['post', '/oidc/x'],
  ['head', '/oidc/x'],
  ['put', '/oidc/token'],
  ['get', '/oidc/jwks/x'],
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
  it('is answered 404 route_not_found as problem details, with the security headers and no-store, the provider mount included', async () => {
    const wrong: unknown[] = [];
    for (const [method, path] of UNKNOWN) {
      const answer = await request(running.server)[method](path);
      const seen = {
        status: answer.status,
        type: answer.headers['content-type']?.replace('; charset=utf-8', ''),
        cache: answer.headers['cache-control'],
        sniff: answer.headers['x-content-type-options'],
        body: method === 'head' ? undefined : codeOf(answer.text),
      };
      const expected = {
        status: 404,
        type: 'application/problem+json',
        cache: 'no-store',
        sniff: 'nosniff',
        body: method === 'head' ? undefined : 'route_not_found',
      };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push({ method, path, ...seen });
    }
    expect(wrong).toEqual([]);
    const provider = await request(running.server).get('/oidc/x?y=1').expect(404);
    expect(JSON.parse(provider.text)).toMatchObject({ title: 'No such route', status: 404, detail: 'No route for GET /oidc/x.' });
    expect(provider.headers['x-frame-options']).toBe('DENY');
  });

  it("leaves the pages for people pages, and the provider's own answers its own", async () => {
    const link = await request(running.server).get('/v1/password-setup/unknown-token').expect(410);
    expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
    const interaction = await request(running.server).get('/v1/signin/unknown-interaction').expect(400);
    expect(interaction.headers['content-type']).toBe('text/html; charset=utf-8');
    const discovery = await request(running.server).get('/oidc/.well-known/openid-configuration').expect(200);
    expect(discovery.body.issuer).toMatch(/\/oidc$/);
    const token = await request(running.server).post('/oidc/token').type('form').send({ grant_type: 'nope' });
    expect([token.status, token.body.error]).toEqual([400, 'invalid_request']);
  });

  it("refuses a header field held twice before the provider's mount too", async () => {
    await new Promise<void>((resolve) => running.server.listen(0, '127.0.0.1', resolve));
    const { port } = running.server.address() as AddressInfo;
    const ask = (path: string, lines: string) => rawHttpExchange(port, `GET ${path} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`);
    for (const path of ['/oidc/.well-known/openid-configuration', '/v1/organizations']) {
      const twice = await ask(
        path,
        `Host: 127.0.0.1:${port}\r\nAuthorization: Bearer ${running.platformKey}\r\nAuthorization: Bearer x\r\n`,
      );
      expect([path, twice.status, JSON.parse(twice.body).code]).toEqual([path, 400, 'validation_failed']);
      const once = await ask(path, `Host: 127.0.0.1:${port}\r\nAuthorization: Bearer ${running.platformKey}\r\n`);
      expect([path, once.status]).toEqual([path, 200]);
    }
  });
});
