// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): a write of people and another
// transaction's uncommitted change must run side by side, which an embedded database's single connection cannot.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from '../support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(async () => {
  await identity.close();
});

async function registryWithUser(): Promise<{ key: string; registryId: string; id: string; uid: string }> {
  const { key, registryId } = await identity.newRegistry();
  const { body } = await request(identity.server)
    .post('/v1/users')
    .set(bearer(key))
    .send({
      registryId,
      externalId: `ext-${randomBytes(4).toString('hex')}`,
      email: `race.${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: false,
      displayName: 'Ana Lima',
      locale: 'en',
    })
    .expect(201);
  return { key, registryId, id: body.id, uid: body.uid };
}

type Statement = [sql: string, params: unknown[]];

/**
 * Sends `send` while the statements of `change` are uncommitted in another transaction, and commits them
 * only once the request's transaction waits for them (after running `whileWaiting`, in that transaction
 * too): the request must then see the change. Answers the request's response.
 */
async function sendDuring(change: Statement[], send: () => request.Test, whileWaiting: Statement[] = []): Promise<request.Response> {
  const other = identity.dataSource.createQueryRunner();
  await other.connect();
  await other.startTransaction();
  try {
    for (const [sql, params] of change) await other.query(sql, params);
    let answered = false;
    const asked = send().then((response) => {
      answered = true;
      return response;
    });
    for (;;) {
      const [waiting] = await identity.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      if (waiting.n > 0) break;
      if (answered) throw new Error(`the request answered ${(await asked).status} without waiting for the other transaction`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const [sql, params] of whileWaiting) await other.query(sql, params);
    await other.commitTransaction();
    return await asked;
  } finally {
    if (other.isTransactionActive) await other.rollbackTransaction();
    await other.release();
  }
}

const deleteApp = (registryId: string): Statement[] => [
  ['UPDATE registered_app SET deleted_at = now() WHERE registry_id = $1', [registryId]],
];
const mirrorOf = (id: string) => identity.dataSource.query('SELECT display_name, uid FROM user_mirror WHERE id = $1', [id]);

describe('a write of a mirror record while its app is being deleted', () => {
  it('creates nothing: the create waits for the deletion and answers 404', async () => {
    const { key, registryId } = await registryWithUser();
    const response = await sendDuring(deleteApp(registryId), () =>
      request(identity.server)
        .post('/v1/users')
        .set(bearer(key))
        .send({ registryId, externalId: 'late', email: 'late@example.com', emailVerified: false, displayName: 'Late', locale: 'en' }),
    );
    expect(response.status).toBe(404);
    expect(
      await identity.dataSource.query('SELECT 1 FROM user_mirror WHERE registry_id = $1 AND external_id = $2', [registryId, 'late']),
    ).toEqual([]);
  });

  it('changes nothing: an update waits for the deletion and answers 404', async () => {
    const { key, registryId, id } = await registryWithUser();
    const response = await sendDuring(deleteApp(registryId), () =>
      request(identity.server).patch(`/v1/users/${id}`).set(bearer(key)).send({ displayName: 'Changed Late' }),
    );
    expect(response.status).toBe(404);
    expect((await mirrorOf(id))[0]).toMatchObject({ display_name: 'Ana Lima' });
  });

  it('deletes nothing: a delete waits for the deletion and answers 404', async () => {
    const { key, registryId, id } = await registryWithUser();
    const response = await sendDuring(deleteApp(registryId), () => request(identity.server).delete(`/v1/users/${id}`).set(bearer(key)));
    expect(response.status).toBe(404);
    expect(await mirrorOf(id)).toHaveLength(1);
  });
});

it('keeps the unified user, and the role granted to it meanwhile, when its last record is deleted while the grant commits', async () => {
  const { key, id, uid } = await registryWithUser();
  const bindingId = uuidv7();
  const response = await sendDuring(
    [
      ['SELECT uid FROM unified_user WHERE uid = $1 FOR SHARE', [uid]],
      [`INSERT INTO role_binding (id, uid, role, organization_id) VALUES ($1, $2, 'investor', NULL)`, [bindingId, uid]],
    ],
    () => request(identity.server).delete(`/v1/users/${id}`).set(bearer(key)),
  );
  expect(response.status).toBe(204);
  expect(await mirrorOf(id)).toEqual([]);
  expect(await identity.dataSource.query('SELECT uid FROM unified_user WHERE uid = $1', [uid])).toEqual([{ uid }]);
  expect(await identity.dataSource.query('SELECT uid, role FROM role_binding WHERE id = $1', [bindingId])).toEqual([
    { uid, role: 'investor' },
  ]);
});

it('applies no sync to an app whose deletion commits meanwhile: the sync waits for it and answers 404', async () => {
  const { key, registryId } = await registryWithUser();
  const response = await sendDuring(deleteApp(registryId), () =>
    request(identity.server)
      .post('/v1/sync')
      .set(bearer(key))
      .send({
        registryId,
        records: [{ externalId: 'late', email: 'late@example.com', emailVerified: false, displayName: 'Late', locale: 'en' }],
      }),
  );
  expect(response.status).toBe(404);
  expect(
    await identity.dataSource.query('SELECT 1 FROM user_mirror WHERE registry_id = $1 AND external_id = $2', [registryId, 'late']),
  ).toEqual([]);
});

it('grants a role to the survivor when the user named is merged into it while the grant runs', async () => {
  const [{ uid: named }, { uid: survivor }] = [await registryWithUser(), await registryWithUser()];
  const response = await sendDuring(
    [
      ['SELECT uid FROM unified_user WHERE uid = $1 FOR UPDATE', [named]],
      ['UPDATE unified_user SET merged_into = $2 WHERE uid = $1', [named, survivor]],
    ],
    () => request(identity.server).post('/v1/role-bindings').set(bearer(identity.platformKey)).send({ uid: named, role: 'investor' }),
  );
  expect(response.status).toBe(201);
  expect(response.body.uid).toBe(survivor);
  expect(await identity.dataSource.query('SELECT uid FROM role_binding WHERE id = $1', [response.body.id])).toEqual([{ uid: survivor }]);
});

it('merges a person while a write of one of their records holds its registry, without a deadlock when that write then links the person', async () => {
  const [merged, survivor] = [await registryWithUser(), await registryWithUser()];
  const response = await sendDuring(
    [
      ['SELECT registry_id FROM registered_app WHERE registry_id = $1 FOR NO KEY UPDATE', [merged.registryId]],
      ['SELECT id FROM user_mirror WHERE id = $1 FOR UPDATE', [merged.id]],
    ],
    () =>
      request(identity.server)
        .post('/v1/unified-users/merge')
        .set(bearer(identity.platformKey))
        .send({ survivorUid: survivor.uid, mergedUid: merged.uid }),
    [['SELECT uid FROM unified_user WHERE uid = $1 FOR SHARE', [merged.uid]]],
  );
  expect(response.status).toBe(201);
  expect(await mirrorOf(merged.id)).toEqual([{ display_name: 'Ana Lima', uid: survivor.uid }]);
});

it('merges two people while another merge holds the first of them in uid order, without a deadlock when it then takes the second', async () => {
  const [first, second] = [(await registryWithUser()).uid, (await registryWithUser()).uid].sort();
  const response = await sendDuring(
    [['SELECT uid FROM unified_user WHERE uid = $1 FOR UPDATE', [first]]],
    () =>
      request(identity.server)
        .post('/v1/unified-users/merge')
        .set(bearer(identity.platformKey))
        .send({ survivorUid: second, mergedUid: first }),
    [['SELECT uid FROM unified_user WHERE uid = $1 FOR UPDATE', [second]]],
  );
  expect(response.status).toBe(201);
  expect(await identity.dataSource.query('SELECT merged_into FROM unified_user WHERE uid = $1', [first])).toEqual([
    { merged_into: second },
  ]);
});
