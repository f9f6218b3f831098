import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { downstreamServiceCheck, serviceUrl } from '../src';

describe('serviceUrl', () => {
  it('puts the path after the base, with or without a path of its own, a trailing slash reading the same as none', () => {
    expect(serviceUrl('http://identity:3003', '/v1/decisions').href).toBe('http://identity:3003/v1/decisions');
    expect(serviceUrl('http://identity:3003/', '/v1/decisions').href).toBe('http://identity:3003/v1/decisions');
    expect(serviceUrl('http://proxy:8080/identity', '/v1/decisions').href).toBe('http://proxy:8080/identity/v1/decisions');
    expect(serviceUrl('https://proxy.example.com/platform/identity/', '/v1/decisions').href).toBe(
      'https://proxy.example.com/platform/identity/v1/decisions',
    );
  });

  it('takes encoded segments as written, in the base and in the path', () => {
    expect(serviceUrl('http://proxy/my%20identity', `/v1/organizations/${encodeURIComponent('a/b?c#d')}`).href).toBe(
      'http://proxy/my%20identity/v1/organizations/a%2Fb%3Fc%23d',
    );
    expect(serviceUrl('http://proxy/id', '/v1/a%2F..%2Fb').pathname).toBe('/id/v1/a%2F..%2Fb');
  });

  it('leaves the query to searchParams of the result', () => {
    const url = serviceUrl('http://proxy/standards/', '/api/v2/terms');
    url.searchParams.set('cursor', 'a&b');
    expect(url.href).toBe('http://proxy/standards/api/v2/terms?cursor=a%26b');
  });

  it('refuses a path without its leading slash or with a query, and a base with a query or fragment', () => {
    expect(() => serviceUrl('http://proxy/identity', 'v1/decisions')).toThrow(TypeError);
    expect(() => serviceUrl('http://proxy/identity', '/v1/decisions?x=1')).toThrow(TypeError);
    expect(() => serviceUrl('http://proxy/identity?tenant=a', '/v1/decisions')).toThrow(TypeError);
    expect(() => serviceUrl('http://proxy/identity#x', '/v1/decisions')).toThrow(TypeError);
  });
});

describe('a downstream service mounted under a path', () => {
  it("is checked at its own /healthz under that path, not at the proxy's", async () => {
    const asked: string[] = [];
    const proxy = createServer((request, response) => {
      asked.push(request.url!);
      response.writeHead(request.url === '/identity/healthz' ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/identity`;
      await downstreamServiceCheck('identity', base).check();
      await downstreamServiceCheck('identity', `${base}/`).check();
      expect(asked).toEqual(['/identity/healthz', '/identity/healthz']);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
