import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { decisionSignature } from '@stdreg/contracts';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient, type AuthorizationQuestion } from '../src';
import { answerAsIdentity, questionOf, SERVICE_TOKEN } from './support/identity-answer';

type Behaviour = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** The request body as if it had asked something else. */
const retold = (body: string, changes: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(body), ...changes });

const allow = (body: string, response: ServerResponse) =>
  answerAsIdentity(body, response, {
    decision: 'allow',
    reason: 'organization_key',
    subject: { kind: 'app_key', id: 'k1', keyPrefix: 'abc' },
  });

describe('AuthorizationClient', () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour;
  let requests: { path: string | undefined; authorization: string | undefined; body: string }[];
  const clients: AuthorizationClient[] = [];

  const client = (options: { timeoutMs?: number; readAllowCacheMs?: number; identityUrl?: string } = {}) => {
    const created = new AuthorizationClient({
      identityUrl: options.identityUrl ?? url,
      serviceToken: SERVICE_TOKEN,
      readAllowCacheMs: 0,
      ...options,
    });
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
        requests.push({ path: request.url, authorization: request.headers.authorization, body });
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
    behaviour = (_, body, response) => allow(body, response);
    const answer = await client().ask(question());
    expect(answer).toEqual({ decision: 'allow', reason: 'organization_key', subject: { kind: 'app_key', id: 'k1', keyPrefix: 'abc' } });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.authorization).toBe('Bearer service-token');
    expect(JSON.parse(requests[0]!.body)).toEqual({ ...question(), nonce: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
  });

  it('asks identity under the path of its URL (mounted behind a proxy), with or without a trailing slash', async () => {
    behaviour = (_, body, response) => allow(body, response);
    for (const identityUrl of [`${url}/identity`, `${url}/identity/`]) {
      expect(await client({ identityUrl }).ask(question())).toMatchObject({ decision: 'allow' });
    }
    expect(requests.map((asked) => asked.path)).toEqual(['/identity/v1/decisions', '/identity/v1/decisions']);
  });

  it('passes a deny through as a denial that is not an outage', async () => {
    behaviour = (_, body, response) => answerAsIdentity(body, response, { decision: 'deny', reason: 'human_required', subject: null });
    expect(await client().ask(question('split-project:activate'))).toEqual({
      decision: 'deny',
      reason: 'human_required',
      subject: null,
      unavailable: false,
    });
  });

  const failures: [string, Behaviour][] = [
    [
      'a 500',
      (_, __, response) => {
        response.statusCode = 500;
        response.end('{"decision":"allow"}');
      },
    ],
    [
      'a 401',
      (_, __, response) => {
        response.statusCode = 401;
        response.end();
      },
    ],
    ['garbage', (_, __, response) => response.end('<html>oops</html>')],
    ['an unknown decision value', (_, __, response) => response.end('{"decision":"maybe","reason":"?"}')],
    ['an allow without a subject', (_, __, response) => response.end('{"decision":"allow","reason":"x"}')],
    [
      'a signed allow to an agent without a supervisor',
      (_, body, response) => answerAsIdentity(body, response, { decision: 'allow', reason: 'x', subject: { kind: 'agent', id: 'k1' } }),
    ],
    ['a JSON array', (_, __, response) => response.end('[]')],
    [
      'an unsigned allow',
      (_, body, response) =>
        response.end(
          JSON.stringify({
            decision: 'allow',
            reason: 'organization_key',
            subject: { kind: 'app_key', id: 'k1' },
            question: questionOf(body),
          }),
        ),
    ],
    [
      'an allow signed with another credential',
      (_, body, response) =>
        answerAsIdentity(body, response, { decision: 'allow', reason: 'x', subject: { kind: 'app_key', id: 'k1' } }, 'another-token'),
    ],
    [
      'a signed allow for another action',
      (_, body, response) =>
        answerAsIdentity(retold(body, { action: 'split-project:read' }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow in another organization',
      (_, body, response) =>
        answerAsIdentity(retold(body, { resource: { organizationId: '01900000-0000-7000-8000-00000000000b' } }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow for another project',
      (_, body, response) =>
        answerAsIdentity(
          retold(body, { resource: { organizationId: '01900000-0000-7000-8000-00000000000a', projectId: 'p-2' } }),
          response,
          { decision: 'allow', reason: 'x', subject: { kind: 'human', id: 'u1' } },
        ),
    ],
    [
      'a signed allow for another credential',
      (_, body, response) =>
        answerAsIdentity(retold(body, { credential: { kind: 'access_token', value: 'someone else' } }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow for another resource server (audience)',
      (_, body, response) =>
        answerAsIdentity(retold(body, { audience: 'https://gateway.example/mcp' }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow to a question naming scopes this one did not',
      (_, body, response) =>
        answerAsIdentity(retold(body, { scope: 'projects:read' }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow to an earlier question (another nonce)',
      (_, body, response) =>
        answerAsIdentity(retold(body, { nonce: 'an-earlier-nonce-0000000' }), response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
        }),
    ],
    [
      'a signed allow without the question',
      (_, __, response) => {
        const answer = JSON.stringify({ decision: 'allow', reason: 'x', subject: { kind: 'human', id: 'u1' } });
        response.setHeader('decision-signature', decisionSignature(SERVICE_TOKEN, answer));
        response.end(answer);
      },
    ],
    [
      'a body declared over 64 KiB',
      (_, __, response) => {
        response.setHeader('content-length', String(65 * 1024));
        response.write('{"decision":"allow"');
      },
    ],
    [
      'a signed allow padded over 64 KiB',
      (_, body, response) =>
        answerAsIdentity(body, response, {
          decision: 'allow',
          reason: 'x',
          subject: { kind: 'human', id: 'u1' },
          padding: 'x'.repeat(70 * 1024),
        }),
    ],
  ];
  it.each(failures)('denies when identity answers %s', async (_, failure) => {
    behaviour = failure;
    const answer = await client().ask(question());
    expect(answer).toMatchObject({ decision: 'deny', unavailable: true });
  });

  it('refuses an answer that declares more than 64 KiB unread, without waiting for its body', async () => {
    behaviour = (_, __, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(65 * 1024) });
      response.write('{"decision":"allow"');
    };
    const answer = await client({ timeoutMs: 10_000 }).ask(question());
    expect(answer).toEqual({ decision: 'deny', reason: 'identity answered more than 64 KiB', subject: null, unavailable: true });
  });

  it('stops reading an endless body at 64 KiB and denies', async () => {
    let written = 0;
    behaviour = (_, __, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && written < 512 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
      };
      response.write('{"decision":"allow","reason":"');
      pump();
    };
    const answer = await client({ timeoutMs: 10_000 }).ask(question());
    expect(answer).toEqual({ decision: 'deny', reason: 'identity answered more than 64 KiB', subject: null, unavailable: true });
    expect(written).toBeLessThan(512 * 1024 * 1024);
  });

  it('passes on only the denial reasons identity gives, and allow reasons in their short form', async () => {
    behaviour = (_, body, response) =>
      answerAsIdentity(body, response, { decision: 'deny', reason: 'x'.repeat(8 * 1024 * 1024), subject: null });
    expect(await client().ask(question())).toEqual({
      decision: 'deny',
      reason: 'identity answered more than 64 KiB',
      subject: null,
      unavailable: true,
    });
    behaviour = (_, body, response) => answerAsIdentity(body, response, { decision: 'deny', reason: 'x'.repeat(60 * 1024), subject: null });
    expect(await client().ask(question())).toEqual({ decision: 'deny', reason: 'denied', subject: null, unavailable: false });
    behaviour = (_, body, response) =>
      answerAsIdentity(body, response, { decision: 'deny', reason: 'Call 555-0100 to be let in', subject: null });
    expect((await client().ask(question())).reason).toBe('denied');
    behaviour = (_, body, response) =>
      answerAsIdentity(body, response, { decision: 'allow', reason: 'x'.repeat(1000), subject: { kind: 'human', id: 'u1' } });
    expect(await client().ask(question())).toEqual({ decision: 'allow', reason: 'allowed', subject: { kind: 'human', id: 'u1' } });
    behaviour = (_, body, response) =>
      answerAsIdentity(body, response, { decision: 'allow', reason: 'role:project-owner', subject: { kind: 'human', id: 'u1' } });
    expect((await client().ask(question())).reason).toBe('role:project-owner');
  });

  it('passes on how recent a sign-in must be with authentication_too_old only, and only a plausible one', async () => {
    const tooOld =
      (maxAge: unknown, reason = 'authentication_too_old'): Behaviour =>
      (_, body, response) =>
        answerAsIdentity(body, response, { decision: 'deny', reason, subject: { kind: 'human', id: 'u1' }, maxAge });
    behaviour = tooOld(300);
    expect(await client().ask(question('split-project:activate'))).toEqual({
      decision: 'deny',
      reason: 'authentication_too_old',
      subject: { kind: 'human', id: 'u1' },
      unavailable: false,
      maxAge: 300,
    });
    for (const maxAge of [0, -5, 1.5, '300', 86_401, null]) {
      behaviour = tooOld(maxAge);
      expect(await client().ask(question('split-project:activate'))).not.toHaveProperty('maxAge');
    }
    behaviour = tooOld(300, 'role_required');
    expect(await client().ask(question('split-project:activate'))).not.toHaveProperty('maxAge');
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
    expect(await client({ identityUrl: deadUrl }).ask(question())).toEqual({
      decision: 'deny',
      reason: 'identity is unreachable',
      subject: null,
      unavailable: true,
    });
  });

  it('reuses an allow of a read action for the cache window, and never caches writes or denials', async () => {
    behaviour = (_, body, response) => allow(body, response);
    const cached = client({ readAllowCacheMs: 1000 });
    await cached.ask(question('split-project:read'));
    await cached.ask(question('split-project:read'));
    expect(requests).toHaveLength(1);
    await cached.ask(question('split-project:draft'));
    await cached.ask(question('split-project:draft'));
    expect(requests).toHaveLength(3);
    await cached.ask({ ...question('split-project:read'), credential: { kind: 'api_key', value: 'another key' } });
    expect(requests).toHaveLength(4);
    behaviour = (_, body, response) =>
      answerAsIdentity(body, response, { decision: 'deny', reason: 'organization_mismatch', subject: null });
    const denying = client({ readAllowCacheMs: 1000 });
    await denying.ask(question('equity-ledger:read'));
    await denying.ask(question('equity-ledger:read'));
    expect(requests).toHaveLength(6);
  });

  it('keeps reused allows apart per organization, project, action and scope: one allow is never reused for another question', async () => {
    behaviour = (_, body, response) => allow(body, response);
    const cached = client({ readAllowCacheMs: 1000 });
    const base = question('split-project:read');
    const projectId = '01900000-0000-7000-8000-0000000000b1';
    const variants: AuthorizationQuestion[] = [
      base,
      { ...base, resource: { organizationId: '01900000-0000-7000-8000-00000000000b' } },
      { ...base, resource: { ...base.resource, projectId } },
      { ...base, resource: { ...base.resource, projectId: '01900000-0000-7000-8000-0000000000b2' } },
      { ...base, action: 'settlement-run:read' },
      { ...base, scope: 'tools:read' },
    ];
    for (const variant of variants) await cached.ask(variant);
    expect(requests).toHaveLength(variants.length);
    for (const variant of variants) await cached.ask(variant);
    expect(requests).toHaveLength(variants.length);
  });

  it('reuses an allow of an action asked as read-only for the cache window, and asks every time when it is not', async () => {
    behaviour = (_, body, response) => allow(body, response);
    const cached = client({ readAllowCacheMs: 1000 });
    const toolCall = (readOnly?: boolean): AuthorizationQuestion => ({
      ...question('tool:call'),
      resource: {},
      ...(readOnly ? { readOnly } : {}),
    });
    await cached.ask(toolCall(true));
    await cached.ask(toolCall(true));
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0]!.body)).not.toHaveProperty('readOnly');
    await cached.ask(toolCall());
    await cached.ask(toolCall());
    expect(requests).toHaveLength(3);
    await cached.ask({ ...toolCall(true), credential: { kind: 'api_key', value: 'another key' } });
    expect(requests).toHaveLength(4);
  });

  it('never reuses an allow of a formal action, even asked as read-only', async () => {
    behaviour = (_, body, response) => allow(body, response);
    const cached = client({ readAllowCacheMs: 1000 });
    await cached.ask({ ...question('split-project:activate'), readOnly: true });
    await cached.ask({ ...question('split-project:activate'), readOnly: true });
    expect(requests).toHaveLength(2);
  });

  it('asks again once the window is over, and then sees a revoked credential', async () => {
    behaviour = (_, body, response) => allow(body, response);
    const cached = client({ readAllowCacheMs: 300 });
    const readOnlyCall: AuthorizationQuestion = { ...question('tool:call'), resource: {}, readOnly: true };
    expect((await cached.ask(readOnlyCall)).decision).toBe('allow');
    expect((await cached.ask(readOnlyCall)).decision).toBe('allow');
    expect(requests).toHaveLength(1);
    behaviour = (_, body, response) => answerAsIdentity(body, response, { decision: 'deny', reason: 'invalid_credential', subject: null });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await cached.ask(readOnlyCall)).toMatchObject({ decision: 'deny', unavailable: false });
    expect(await cached.ask(readOnlyCall)).toMatchObject({ decision: 'deny', unavailable: false });
    expect(requests).toHaveLength(3);
  });

  it('never turns a denial or an outage of a read-only ask into a reused allow', async () => {
    behaviour = (_, __, response) => {
      response.statusCode = 503;
      response.end();
    };
    const cached = client({ readAllowCacheMs: 1000 });
    const readOnlyCall: AuthorizationQuestion = { ...question('tool:call'), resource: {}, readOnly: true };
    expect(await cached.ask(readOnlyCall)).toMatchObject({ decision: 'deny', unavailable: true });
    expect(await cached.ask(readOnlyCall)).toMatchObject({ decision: 'deny', unavailable: true });
    behaviour = (_, body, response) => answerAsIdentity(body, response, { decision: 'deny', reason: 'invalid_credential', subject: null });
    expect(await cached.ask(readOnlyCall)).toMatchObject({ decision: 'deny', unavailable: false });
    expect(requests).toHaveLength(3);
  });

  it('asks identity once for the same read asked many times at once, and once for every write', async () => {
    behaviour = (_, body, response) => setTimeout(() => allow(body, response), 50);
    const cached = client({ readAllowCacheMs: 1000 });
    const reads = await Promise.all(Array.from({ length: 20 }, () => cached.ask(question('split-project:read'))));
    expect(reads.map((answer) => answer.decision)).toEqual(Array(20).fill('allow'));
    expect(requests).toHaveLength(1);
    await Promise.all(Array.from({ length: 5 }, () => cached.ask(question('split-project:draft'))));
    expect(requests).toHaveLength(6);
  });

  it('shares a denial among the reads that joined its ask, and asks again afterwards', async () => {
    behaviour = (_, body, response) =>
      setTimeout(() => answerAsIdentity(body, response, { decision: 'deny', reason: 'role_required', subject: null }), 50);
    const cached = client({ readAllowCacheMs: 1000 });
    const reads = await Promise.all(Array.from({ length: 3 }, () => cached.ask(question('split-project:read'))));
    expect(reads.map((answer) => answer.reason)).toEqual(['role_required', 'role_required', 'role_required']);
    expect(requests).toHaveLength(1);
    await cached.ask(question('split-project:read'));
    expect(requests).toHaveLength(2);
  });
});
