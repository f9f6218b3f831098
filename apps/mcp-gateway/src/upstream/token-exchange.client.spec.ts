import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenExchangeClient } from './token-exchange.client';

/** identity's token exchange, as the gateway sees it: each exchange a new token, or the answer the test sets. */
describe('the token exchange client', () => {
  const asked: { subject: string; scope: string }[] = [];
  let answer: { status: number; expiresIn: number } = { status: 200, expiresIn: 600 };
  const identity = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { subject_token: string; scope: string };
      asked.push({ subject: body.subject_token, scope: body.scope });
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          answer.status === 200
            ? { access_token: `hop-${asked.length}-${body.subject_token}-${body.scope}`, expires_in: answer.expiresIn }
            : { detail: 'no' },
        ),
      );
    });
  });
  let client: TokenExchangeClient;

  beforeAll(async () => {
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    client = new TokenExchangeClient(`http://127.0.0.1:${(identity.address() as AddressInfo).port}`, 'service-token', 1000);
  });
  beforeEach(() => {
    asked.length = 0;
    answer = { status: 200, expiresIn: 600 };
  });
  afterAll(() => new Promise((resolve) => identity.close(resolve)));

  it("reuses an exchanged token for the same agent token and scope only, never another agent's or another scope's", async () => {
    const read = await client.forStandardsApi('agent-a-1', 'projects:read');
    expect(await client.forStandardsApi('agent-a-1', 'projects:read')).toEqual(read);
    expect(asked).toHaveLength(1);
    const draft = await client.forStandardsApi('agent-a-1', 'projects:draft');
    const other = await client.forStandardsApi('agent-b-1', 'projects:read');
    expect(asked).toEqual([
      { subject: 'agent-a-1', scope: 'projects:read' },
      { subject: 'agent-a-1', scope: 'projects:draft' },
      { subject: 'agent-b-1', scope: 'projects:read' },
    ]);
    expect(new Set([read, draft, other].map((hop) => hop.ok && hop.token)).size).toBe(3);
  });

  it('exchanges again instead of using a token in its last 30 seconds', async () => {
    answer = { status: 200, expiresIn: 30 };
    const first = await client.forStandardsApi('agent-c-1', 'projects:read');
    const second = await client.forStandardsApi('agent-c-1', 'projects:read');
    expect(asked).toHaveLength(2);
    expect(second).not.toEqual(first);
  });

  it("answers identity's refusal with 403 and any other failure with 503, and keeps neither", async () => {
    answer = { status: 422, expiresIn: 600 };
    expect(await client.forStandardsApi('agent-d-1', 'projects:draft')).toMatchObject({ ok: false, status: 403 });
    answer = { status: 500, expiresIn: 600 };
    expect(await client.forStandardsApi('agent-d-1', 'projects:draft')).toMatchObject({ ok: false, status: 503 });
    answer = { status: 200, expiresIn: 600 };
    expect(await client.forStandardsApi('agent-d-1', 'projects:draft')).toMatchObject({ ok: true });
    expect(asked).toHaveLength(3);
  });
});
