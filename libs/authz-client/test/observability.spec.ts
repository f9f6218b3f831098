import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { continueTrace, metricsText, requestContext } from '@stdreg/server-kit';
import { AuthorizationClient, type AuthorizationQuestion } from '../src';
import { answerAsIdentity, SERVICE_TOKEN } from './support/identity-answer';

const question: AuthorizationQuestion = {
  credential: { kind: 'api_key', value: 'stdreg_app_key' },
  action: 'split-project:draft',
  resource: { organizationId: '01900000-0000-7000-8000-00000000000a' },
};

async function askedCount(outcome: string): Promise<number> {
  const line = (await metricsText())
    .split('\n')
    .find((l) => l.startsWith(`authorization_decisions_total{side="asked",outcome="${outcome}"} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('AuthorizationClient observability', () => {
  let server: Server;
  let url: string;
  let answer: Record<string, unknown> | string;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers);
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => (typeof answer === 'string' ? response.end(answer) : answerAsIdentity(body, response, answer)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('carries the trace of the request it asks for on to identity', async () => {
    answer = { decision: 'deny', reason: 'role_required', subject: null };
    const client = new AuthorizationClient({ identityUrl: url, serviceToken: SERVICE_TOKEN });
    const trace = continueTrace('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    await requestContext.run({ requestId: 'r1', trace }, () => client.ask(question));
    await client.close();
    expect(seen.at(-1)!['traceparent']).toBe(`00-0af7651916cd43dd8448eb211c80319c-${trace.spanId}-01`);
  });

  it('counts every answer by outcome: allow, deny, and unavailable for an outage', async () => {
    const before = { allow: await askedCount('allow'), deny: await askedCount('deny'), unavailable: await askedCount('unavailable') };
    const client = new AuthorizationClient({ identityUrl: url, serviceToken: SERVICE_TOKEN, readAllowCacheMs: 0 });
    answer = { decision: 'allow', reason: 'role:x', subject: { kind: 'app_key', id: 'k1' } };
    await client.ask(question);
    await client.ask(question);
    answer = { decision: 'deny', reason: 'role_required', subject: null };
    await client.ask(question);
    answer = '<html>';
    await client.ask(question);
    await client.close();
    expect({ allow: await askedCount('allow'), deny: await askedCount('deny'), unavailable: await askedCount('unavailable') }).toEqual({
      allow: before.allow + 2,
      deny: before.deny + 1,
      unavailable: before.unavailable + 1,
    });
  });
});
