import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient, type AuthorizationQuestion } from '../src';

type Behaviour = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const allow = (response: ServerResponse) =>
  response.end(JSON.stringify({ decision: 'allow', reason: 'organization_key', subject: { kind: 'app_key', id: 'k1', keyPrefix: 'abc' } }));

describe('AuthorizationClient', () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour;
  let requests: { authorization: string | undefined; body: string }[];
  const clients: AuthorizationClient[] = [];

  const client = (options: { timeoutMs?: number; readAllowCacheMs?: number; identityUrl?: string } = {}) => {
    const created = new AuthorizationClient({ identityUrl: options.identityUrl ?? url, serviceToken: 'service-token', readAllowCacheMs: 0, ...options });
    clients.push(created);
    return created;
  };
  const question = (action: AuthorizationQuestion['action'] = 'split-project:draft'): AuthorizationQuestion => ({
    credential: { kind: 'api_key', value: 'stdreg_app_key' },
    action,
    resource: { organizationId: '01900000-0000-7000-8000-00000000000a' },
  });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        requests.push({ authorization: request.headers.authorization, body });
        behaviour(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    requests = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks the decision endpoint with its service credential and passes an allow through', async () => {
    behaviour = (_, __, response) => allow(response);
    const answer = await client().ask(question());
    expect(answer).toEqual({ decision: 'allow', reason: 'organization_key', subject: { kind: 'app_key', id: 'k1', keyPrefix: 'abc' } });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.authorization).toBe('Bearer service-token');
    expect(JSON.parse(requests[0]!.body)).toEqual(question());
  });

  it('passes a deny through as a denial that is not an outage', async () => {
    behaviour = (_, __, response) => response.end(JSON.stringify({ decision: 'deny', reason: 'human_required', subject: null }));
    expect(await client().ask(question('split-project:activate'))).toEqual({ decision: 'deny', reason: 'human_required', subject: null, unavailable: false });
  });

  const failures: [string, Behaviour][] = [
    ['a 500', (_, __, response) => { response.statusCode = 500; response.end('{"decision":"allow"}'); }],
    ['a 401', (_, __, response) => { response.statusCode = 401; response.end(); }],
    ['garbage', (_, __, response) => response.end('<html>oops</html>')],
    ['an unknown decision value', (_, __, response) => response.end('{"decision":"maybe","reason":"?"}')],
    ['an allow without a subject', (_, __, response) => response.end('{"decision":"allow","reason":"x"}')],
    ['a JSON array', (_, __, response) => response.end('[]')],
  ];
  it.each(failures)('denies when identity answers %s', async (_, failure) => {
    behaviour = failure;
    const answer = await client().ask(question());
    expect(answer).toMatchObject({ decision: 'deny', unavailable: true });
  });

  it('denies when identity hangs, after the timeout', async () => {
    behaviour = () => undefined;
    const answer = await client({ timeoutMs: 200 }).ask(question());
    expect(answer).toEqual({ decision: 'deny', reason: 'identity did not answer in time', subject: null, unavailable: true });
  });

  it('denies when identity refuses the connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await client({ identityUrl: deadUrl }).ask(question())).toEqual({ decision: 'deny', reason: 'identity is unreachable', subject: null, unavailable: true });
  });

  it('reuses an allow of a read action for the cache window, and never caches writes or denials', async () => {
    behaviour = (_, __, response) => allow(response);
    const cached = client({ readAllowCacheMs: 1000 });
    await cached.ask(question('split-project:read'));
    await cached.ask(question('split-project:read'));
    expect(requests).toHaveLength(1);
    await cached.ask(question('split-project:draft'));
    await cached.ask(question('split-project:draft'));
    expect(requests).toHaveLength(3);
    await cached.ask({ ...question('split-project:read'), credential: { kind: 'api_key', value: 'another key' } });
    expect(requests).toHaveLength(4);
    behaviour = (_, __, response) => response.end(JSON.stringify({ decision: 'deny', reason: 'organization_mismatch', subject: null }));
    const denying = client({ readAllowCacheMs: 1000 });
    await denying.ask(question('equity-ledger:read'));
    await denying.ask(question('equity-ledger:read'));
    expect(requests).toHaveLength(6);
  });

  it('asks identity once for the same read asked many times at once, and once for every write', async () => {
    behaviour = (_, __, response) => setTimeout(() => allow(response), 50);
    const cached = client({ readAllowCacheMs: 1000 });
    const reads = await Promise.all(Array.from({ length: 20 }, () => cached.ask(question('split-project:read'))));
    expect(reads.map((answer) => answer.decision)).toEqual(Array(20).fill('allow'));
    expect(requests).toHaveLength(1);
    await Promise.all(Array.from({ length: 5 }, () => cached.ask(question('split-project:draft'))));
    expect(requests).toHaveLength(6);
  });

  it('shares a denial among the reads that joined its ask, and asks again afterwards', async () => {
    behaviour = (_, __, response) => setTimeout(() => response.end(JSON.stringify({ decision: 'deny', reason: 'role_required', subject: null })), 50);
    const cached = client({ readAllowCacheMs: 1000 });
    const reads = await Promise.all(Array.from({ length: 3 }, () => cached.ask(question('split-project:read'))));
    expect(reads.map((answer) => answer.reason)).toEqual(['role_required', 'role_required', 'role_required']);
    expect(requests).toHaveLength(1);
    await cached.ask(question('split-project:read'));
    expect(requests).toHaveLength(2);
  });
});
