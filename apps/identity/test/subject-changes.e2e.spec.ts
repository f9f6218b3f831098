import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { READ_ALLOW_REUSE_LIMIT_MS, type SubjectChangeDto } from '@stdreg/contracts';
import { SERVICE_TOKEN, startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
let url: string;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);

beforeAll(async () => {
  identity = await startIdentity();
  await new Promise<void>((resolve) => identity.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(identity.server.address() as AddressInfo).port}`;
});
afterAll(() => identity.close());

/** A service's stream of subject changes: the events heard so far, by name. It says it applied each change, unless `silent`. */
async function follow({ silent = false } = {}): Promise<{ heard: { event: string; data: unknown }[]; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/subject-changes`, {
    headers: { Authorization: `Bearer ${SERVICE_TOKEN}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const heard: { event: string; data: unknown }[] = [];
  let streamId: string | undefined;
  const sayApplied = (changeId: string) =>
    request(identity.server)
      .post('/v1/subject-changes/applied')
      .set({ Authorization: `Bearer ${SERVICE_TOKEN}` })
      .send({ streamId, changeId })
      .expect(204);
  void (async () => {
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const [eventLine, dataLine] = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        if (!eventLine?.startsWith('event: ')) continue;
        const heardEvent = { event: eventLine.slice(7), data: JSON.parse(dataLine!.slice(6)) as Record<string, string> };
        heard.push(heardEvent);
        if (heardEvent.event === 'ready') streamId = heardEvent.data['streamId'];
        else if (!silent) await sayApplied(heardEvent.data['changeId']!);
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
  data: { changeId: expect.any(String), keyIds: [], personUids: [], accessTokens: false, ...touched },
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
      expect(stream.heard).toEqual([{ event: 'ready', data: { heartbeatMs: 5000, streamId: expect.any(String) } }]);
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

  it('names the people a user deletion, a sync deletion, a merge and an unmerge touch, both people of a merge', async () => {
    const stream = await follow();
    try {
      await until(() => stream.heard.length === 1);
      const { key, registryId } = await identity.newRegistry();
      const person = (externalId: string) => ({
        externalId,
        email: `${externalId}.${uuidv7()}@example.com`,
        emailVerified: true,
        displayName: 'Ana Lima',
        locale: 'en',
      });
      const created = async (externalId: string) =>
        (
          await request(identity.server)
            .post('/v1/users')
            .set(bearer(key))
            .send({ registryId, ...person(externalId) })
            .expect(201)
        ).body;
      const [deletedByApi, survivor, merged] = [await created('api'), await created('survivor'), await created('merged')];
      const synced = person('synced');
      const sync = (records: object[]) =>
        request(identity.server).post('/v1/sync').set(bearer(key)).send({ registryId, records }).expect(200);
      const syncedUid = (await sync([synced])).body.results[0].uid as string;

      await request(identity.server).delete(`/v1/users/${deletedByApi.id}`).set(bearer(key)).expect(204);
      await sync([{ ...synced, deleted: true }]);
      const merge = await request(identity.server)
        .post('/v1/unified-users/merge')
        .set(platform())
        .send({ survivorUid: survivor.uid, mergedUid: merged.uid })
        .expect(201);
      await request(identity.server).post(`/v1/merges/${merge.body.id}/unmerge`).set(platform()).expect(200);
      await until(() => stream.heard.length === 5);
      expect(stream.heard.slice(1)).toEqual([
        change({ personUids: [deletedByApi.uid], accessTokens: true }),
        change({ personUids: [syncedUid], accessTokens: true }),
        change({ personUids: [survivor.uid, merged.uid], accessTokens: true }),
        change({ personUids: [survivor.uid, merged.uid], accessTokens: true }),
      ]);
    } finally {
      stream.close();
    }
  });

  it('names the survivor, who holds the role, when a role is granted through a merged uid', async () => {
    const stream = await follow();
    try {
      await until(() => stream.heard.length === 1);
      const [survivor, merged] = [uuidv7(), uuidv7()];
      await identity.dataSource.query('INSERT INTO unified_user (uid) VALUES ($1), ($2)', [survivor, merged]);
      await request(identity.server)
        .post('/v1/unified-users/merge')
        .set(platform())
        .send({ survivorUid: survivor, mergedUid: merged })
        .expect(201);
      const granted = await request(identity.server)
        .post('/v1/role-bindings')
        .set(platform())
        .send({ uid: merged, role: 'investor' })
        .expect(201);
      expect(granted.body.uid).toBe(survivor);
      await until(() => stream.heard.length === 3);
      expect(stream.heard.slice(2)).toEqual([change({ personUids: [survivor], accessTokens: true })]);
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

  it('answers a write only once every open stream has said it applied the change, or after a service could reuse an allow no more', async () => {
    const stream = await follow({ silent: true });
    try {
      await until(() => stream.heard.length === 1);
      const partner = await identity.newAppKey();
      const started = Date.now();
      await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(platform()).expect(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(READ_ALLOW_REUSE_LIMIT_MS);
      expect(stream.heard.slice(1)).toEqual([change({ keyIds: [partner.key.id], accessTokens: true })]);
    } finally {
      stream.close();
    }
  });

  it('takes word of an applied change only from a service, and only in its form', async () => {
    const word = { streamId: uuidv7(), changeId: uuidv7() };
    await request(identity.server).post('/v1/subject-changes/applied').send(word).expect(401);
    await request(identity.server).post('/v1/subject-changes/applied').set(platform()).send(word).expect(401);
    const service = { Authorization: `Bearer ${SERVICE_TOKEN}` };
    await request(identity.server)
      .post('/v1/subject-changes/applied')
      .set(service)
      .send({ ...word, changeId: 'x' })
      .expect(400);
    await request(identity.server).post('/v1/subject-changes/applied').set(service).send(word).expect(204);
  });
});
