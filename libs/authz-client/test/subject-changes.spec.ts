import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SUBJECT_CHANGES_APPLIED_PATH, SUBJECT_CHANGES_PATH, type ForwardedCredentialDto, type SubjectChangeDto } from '@stdreg/contracts';
import { AuthorizationClient, type AuthorizationQuestion } from '../src';
import { answerAsIdentity, SERVICE_TOKEN } from './support/identity-answer';

const HELD_TIME = Date.parse('2026-11-29T00:00:00Z');
const ORG = '01900000-0000-7000-8000-00000000000a';
/** Whom identity says each credential is. */
const SUBJECTS: Record<string, Record<string, unknown>> = {
  'key-1': { kind: 'app_key', id: 'k1', keyPrefix: 'p1' },
  'key-2': { kind: 'app_key', id: 'k2', keyPrefix: 'p2' },
  'agent-key': { kind: 'agent', id: 'k3', keyPrefix: 'p3', supervisorId: 'person-1' },
  'token-1': { kind: 'human', id: 'person-1' },
  'token-2': { kind: 'human', id: 'person-2' },
};

/** identity's decision endpoint (allowing everyone) and its subject-change stream, which the test drives. */
describe('AuthorizationClient following subject changes', () => {
  let server: Server;
  let url: string;
  let asked: string[];
  let streams: ServerResponse[];
  let refuseStreams: boolean;
  let holdAnswers: (() => void)[] | null;
  /** How often the stream says identity writes to it (it never does here: a stream is silent after its `ready`). */
  let heartbeatMs: number;
  /** What the client said it applied, with how many changes each client had applied by then. */
  let appliedWords: { authorization: string | undefined; word: unknown; changesApplied: number[] }[];
  const streamIdOf = (index: number) => `01900000-0000-7000-8000-${String(index).padStart(12, '0')}`;
  const clients: AuthorizationClient[] = [];

  const newClient = () => {
    const client = new AuthorizationClient({
      identityUrl: url,
      serviceToken: SERVICE_TOKEN,
      readAllowCacheMs: 1000,
      followSubjectChanges: true,
      // Held still: what these specs show is what a change drops, not the window's end, which a slow
      // machine could otherwise reach between two asks (CI at load 14 did).
      clock: () => HELD_TIME,
    });
    clients.push(client);
    return client;
  };
  /** A client whose stream is open. */
  const follow = async () => {
    const client = newClient();
    await until(() => client.reusesAllows);
    return client;
  };
  const read = (credential: string): AuthorizationQuestion => ({
    credential: { kind: credential.startsWith('token') ? 'access_token' : 'api_key', value: credential } as ForwardedCredentialDto,
    action: 'split-project:read',
    resource: { organizationId: ORG },
  });
  const askAll = async (client: AuthorizationClient, credentials: string[]) => {
    for (const credential of credentials) expect((await client.ask(read(credential))).decision).toBe('allow');
  };
  /** Sends a change and waits until the client has applied it. */
  const send = async (client: AuthorizationClient, change: unknown) => {
    const applied = client.subjectChangesApplied;
    for (const stream of streams) stream.write(`event: subject-change\ndata: ${JSON.stringify(change)}\n\n`);
    await until(() => client.subjectChangesApplied === applied + 1);
  };
  const change = (touched: Partial<SubjectChangeDto>): SubjectChangeDto => ({
    changeId: randomUUID(),
    keyIds: [],
    personUids: [],
    accessTokens: false,
    ...touched,
  });

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.method === 'GET' && request.url === SUBJECT_CHANGES_PATH) {
        if (refuseStreams || request.headers.authorization !== `Bearer ${SERVICE_TOKEN}`) return void response.writeHead(503).end();
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`event: ready\ndata: ${JSON.stringify({ heartbeatMs, streamId: streamIdOf(streams.length) })}\n\n`);
        streams.push(response);
        return;
      }
      if (request.method === 'POST' && request.url === SUBJECT_CHANGES_APPLIED_PATH) {
        let word = '';
        request.on('data', (chunk) => (word += chunk));
        request.on('end', () => {
          appliedWords.push({
            authorization: request.headers.authorization,
            word: JSON.parse(word),
            changesApplied: clients.map((c) => c.subjectChangesApplied),
          });
          response.writeHead(204).end();
        });
        return;
      }
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const credential = (JSON.parse(body) as { credential: { value: string } }).credential.value;
        asked.push(credential);
        const answer = () =>
          answerAsIdentity(body, response, { decision: 'allow', reason: 'organization_key', subject: SUBJECTS[credential] });
        if (holdAnswers) holdAnswers.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    asked = [];
    appliedWords = [];
    streams = [];
    refuseStreams = false;
    holdAnswers = null;
    heartbeatMs = 5000;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('drops the allows of a changed key and keeps the others', async () => {
    const client = await follow();
    await askAll(client, ['key-1', 'key-2']);
    await send(client, change({ keyIds: ['k1'] }));
    await askAll(client, ['key-1', 'key-2']);
    expect(asked).toEqual(['key-1', 'key-2', 'key-1']);
  });

  it("drops a changed person's allows, those of the agents they supervise, and with accessTokens every token's", async () => {
    const client = await follow();
    await askAll(client, ['token-1', 'token-2', 'agent-key', 'key-1']);
    await send(client, change({ personUids: ['person-1'] }));
    await askAll(client, ['token-1', 'token-2', 'agent-key', 'key-1']);
    expect(asked.slice(4)).toEqual(['token-1', 'agent-key']);
    await send(client, change({ accessTokens: true }));
    await askAll(client, ['token-1', 'token-2', 'agent-key', 'key-1']);
    expect(asked.slice(6)).toEqual(['token-1', 'token-2']);
  });

  it('says which change it applied, on which stream, once it has dropped what the change touches', async () => {
    const client = await follow();
    const revoked = change({ keyIds: ['k1'] });
    await send(client, revoked);
    await until(() => appliedWords.length === 1);
    expect(appliedWords).toEqual([
      { authorization: `Bearer ${SERVICE_TOKEN}`, word: { streamId: streamIdOf(0), changeId: revoked.changeId }, changesApplied: [1] },
    ]);
  });

  it('drops every allow on a change it cannot read', async () => {
    const client = await follow();
    await askAll(client, ['key-1', 'token-1']);
    await send(client, { keyIds: 'k1' });
    await askAll(client, ['key-1', 'token-1']);
    expect(asked).toEqual(['key-1', 'token-1', 'key-1', 'token-1']);
  });

  it('does not keep an allow asked before a change that arrived while it was on its way', async () => {
    const client = await follow();
    holdAnswers = [];
    const answering = client.ask(read('key-1'));
    await until(() => holdAnswers!.length === 1);
    await send(client, change({ keyIds: ['k2'] }));
    const held = holdAnswers;
    holdAnswers = null;
    held.forEach((answer) => answer());
    expect((await answering).decision).toBe('allow');
    await askAll(client, ['key-1']);
    expect(asked).toEqual(['key-1', 'key-1']);
  });

  it('asks identity every time while the stream is down, and reuses allows again once it is back', async () => {
    refuseStreams = true;
    const client = newClient();
    await askAll(client, ['key-1', 'key-1']);
    expect(asked).toEqual(['key-1', 'key-1']);
    refuseStreams = false;
    await until(() => client.reusesAllows);
    await askAll(client, ['key-1', 'key-1']);
    expect(asked).toEqual(['key-1', 'key-1', 'key-1']);
    refuseStreams = true;
    streams.splice(0).forEach((stream) => stream.end());
    await until(() => !client.reusesAllows);
    await askAll(client, ['key-1']);
    expect(asked).toEqual(['key-1', 'key-1', 'key-1', 'key-1']);
  });

  it('asks again after its stream was lost and opened again: an allow from before the loss is not reused', async () => {
    const client = await follow();
    await askAll(client, ['key-1', 'key-1']);
    expect(asked).toEqual(['key-1']);
    refuseStreams = true;
    streams.splice(0).forEach((stream) => stream.end());
    await until(() => !client.reusesAllows);
    // Whatever changed while the stream was down was never heard: only identity can say now.
    refuseStreams = false;
    await until(() => client.reusesAllows);
    await askAll(client, ['key-1', 'key-1']);
    expect(asked).toEqual(['key-1', 'key-1']);
  });

  it('takes a stream silent for three of its heartbeats as lost: it opens another, and asks again what it had allowed', async () => {
    heartbeatMs = 100;
    const client = await follow();
    await askAll(client, ['key-1']);
    // No heartbeat comes: a connection that died without closing sends nothing either.
    await until(() => streams.length >= 2);
    await until(() => client.reusesAllows);
    await askAll(client, ['key-1']);
    expect(asked).toEqual(['key-1', 'key-1']);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
