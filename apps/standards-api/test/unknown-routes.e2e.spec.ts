import request from 'supertest';
import { startProtectedApi, type ProtectedApi } from './support/protected-api';

let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
}, 120_000);
afterAll(() => running.close());

/** Paths and methods no route takes: outside the API's prefix, the prefix itself, beside the health routes. */
const UNKNOWN: [method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options' | 'head', path: string][] = [
  ['get', '/'],
  ['get', '/x'],
  ['post', '/x'],
  ['options', '/x'],
  ['head', '/x'],
  ['get', '/api'],
  ['get', '/api/v2'],
  ['get', '/api/v2/nope'],
  ['put', '/api/v2/terms'],
  ['delete', '/healthz'],
  ['get', '/healthz/x'],
  ['put', '/metrics'],
  ['get', '/docs'],
  ['get', '/%2e%2e/x'],
];

describe('a request no route takes', () => {
  it('is answered 404 route_not_found as problem details, with the security headers and no-store, wherever it is', async () => {
    const wrong: unknown[] = [];
    for (const [method, path] of UNKNOWN) {
      const answer = await request(running.api.server)[method](path);
      const seen = {
        status: answer.status,
        type: answer.headers['content-type'],
        cache: answer.headers['cache-control'],
        sniff: answer.headers['x-content-type-options'],
        body: method === 'head' ? undefined : answer.body.code,
      };
      const expected = {
        status: 404,
        type: 'application/problem+json; charset=utf-8',
        cache: 'no-store',
        sniff: 'nosniff',
        body: method === 'head' ? undefined : 'route_not_found',
      };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) wrong.push({ method, path, ...seen });
    }
    expect(wrong).toEqual([]);
    const answer = await request(running.api.server).get('/x?y=1').expect(404);
    expect(answer.body).toMatchObject({ title: 'No such route', status: 404, detail: 'No route for GET /x.' });
  });

  it('leaves a malformed URL a 400 problem, and the routes that exist as they are', async () => {
    const malformed = await request(running.api.server).get('/x%').expect(400);
    expect(malformed.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    await request(running.api.server).get('/healthz').expect(200);
    await request(running.api.server).get('/api/v2/openapi.json').expect(200);
  });
});
