import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import type { SubjectChangeDto } from '@stdreg/contracts';
import { SERVICE_TOKEN, startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
let url: string;
const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });

beforeAll(async () => {
  identity = await startIdentity();
  await new Promise<void>((resolve) => identity.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(identity.server.address() as AddressInfo).port}`;
});
afterAll(() => identity.close());

/** A service's stream of subject changes: the events heard so far, by name. */
async function follow(): Promise<{ heard: { event: string; data: unknown }[]; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/subject-changes`, {
    headers: { Authorization: `Bearer ${SERVICE_TOKEN}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const heard: { event: string; data: unknown }[] = [];
  void (async () => {
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const [eventLine, dataLine] = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        if (eventLine?.startsWith('event: ')) heard.push({ event: eventLine.slice(7), data: JSON.parse(dataLine!.slice(6)) });
      }
    }
  })().catch(() => undefined);
  return { heard, close: () => abort.abort() };
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const change = (touched: Partial<SubjectChangeDto>) => ({
  event: 'subject-change',
  data: { keyIds: [], personUids: [], accessTokens: false, ...touched },
});

describe('subject changes', () => {
  it('opens a stream only for a service credential', async () => {
    await request(identity.server).get('/v1/subject-changes').set(platform()).expect(401);
    await request(identity.server).get('/v1/subject-changes').expect(401);
  });

  it('tells an open stream of every write that ends or changes a subject, and of what it touches', async () => {
    const stream = await follow();
    try {
      await until(() => stream.heard.length === 1);
      expect(stream.heard).toEqual([{ event: 'ready', data: { heartbeatMs: 5000 } }]);
      const partner = await identity.newAppKey();
      const { registryId } = await identity.newRegistry(partner.secret);
      const uid = uuidv7();
      await identity.dataSource.query('INSERT INTO unified_user (uid) VALUES ($1)', [uid]);

      await request(identity.server).post(`/v1/keys/${partner.key.id}/rotate`).set(platform()).send({}).expect(200);
      const granted = await request(identity.server)
        .post('/v1/role-bindings')
        .set(platform())
        .send({ uid, role: 'platform-operator' })
        .expect(201);
      await request(identity.server).delete(`/v1/role-bindings/${granted.body.id}`).set(platform()).expect(204);
      await request(identity.server).delete(`/v1/apps/${registryId}`).set(platform()).expect(204);
      await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(platform()).expect(200);
      await until(() => stream.heard.length === 6);
      expect(stream.heard.slice(1)).toEqual([
        change({ keyIds: [partner.key.id] }),
        change({ personUids: [uid], accessTokens: true }),
        change({ personUids: [uid], accessTokens: true }),
        change({ accessTokens: true }),
        change({ keyIds: [partner.key.id], accessTokens: true }),
      ]);
    } finally {
      stream.close();
    }
  });

  it('tells nothing of a write refused before it changed anything', async () => {
    const stream = await follow();
    try {
      await until(() => stream.heard.length === 1);
      await request(identity.server).delete(`/v1/role-bindings/${uuidv7()}`).set(platform()).expect(404);
      const partner = await identity.newAppKey();
      await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(platform()).expect(200);
      await until(() => stream.heard.length === 2);
      expect(stream.heard.slice(1)).toEqual([change({ keyIds: [partner.key.id], accessTokens: true })]);
    } finally {
      stream.close();
    }
  });
});
