import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityClient } from './identity.client';
import { StandardsApiClient } from './standards-api.client';
import { TokenExchangeClient } from './token-exchange.client';

/**
 * identity and standards-api mounted under a path behind one proxy (IDENTITY_URL=http://proxy/identity,
 * STANDARDS_API_URL=http://proxy/standards): every call goes under that path. The proxy answers only there.
 */
describe("the gateway's upstream clients, with services under a path", () => {
  const asked: string[] = [];
  const proxy = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    const served = /^\/(identity\/v1|standards\/api\/v2)\//.test(request.url!);
    response.writeHead(served ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(served ? { access_token: 'hop', expires_in: 600, served: request.url } : { detail: 'not here' }));
  });
  let origin: string;
  const apiKey = { kind: 'api_key' as const, value: 'stdreg_app_key' };

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  beforeEach(() => asked.splice(0));
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  it.each(['', '/'])('reads an organization from identity under its path (base ending in "%s")', async (end) => {
    const result = await new IdentityClient(`${origin}/identity${end}`, 1000).organization('org/1', apiKey);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(asked).toEqual(['GET /identity/v1/organizations/org%2F1']);
  });

  it.each(['', '/'])('exchanges an agent token at identity under its path (base ending in "%s")', async (end) => {
    const hop = await new TokenExchangeClient(`${origin}/identity${end}`, 'service-token', 1000).forStandardsApi('agent', 'projects:read');
    expect(hop).toEqual({ ok: true, token: 'hop' });
    expect(asked).toEqual(['POST /identity/v1/token-exchange']);
  });

  it.each(['', '/'])('reads and drafts at standards-api under its path (base ending in "%s"), the query after it', async (end) => {
    const identityBase = `${origin}/identity${end}`;
    const api = new StandardsApiClient(`${origin}/standards${end}`, 1000, new TokenExchangeClient(identityBase, 'service-token', 1000));
    expect(await api.get('/terms', { cursor: 'a&b' })).toMatchObject({ ok: true });
    const actingAs = { credential: { kind: 'access_token' as const, value: 'agent' }, organizationId: 'o' };
    expect(await api.postDraft('/split-projects', {}, actingAs)).toMatchObject({ ok: true });
    expect(asked).toEqual([
      'GET /standards/api/v2/terms?cursor=a%26b',
      'POST /identity/v1/token-exchange',
      'POST /standards/api/v2/split-projects',
    ]);
  });
});
