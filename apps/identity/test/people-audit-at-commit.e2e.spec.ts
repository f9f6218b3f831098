// An audit entry of a change to people is written in the change's own transaction: when the change fails
// as late as its commit, its entry goes with it. A deferred constraint trigger makes that commit fail.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);

beforeAll(async () => {
  identity = await startIdentity();
  await identity.dataSource.query(
    `CREATE FUNCTION test_fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'fails at commit'; END $$`,
  );
}, 30_000);
afterAll(() => identity.close());

/** Runs `change` while every `event` on `table` matching `when` makes the transaction fail at its commit. */
async function failingAtCommit<T>(
  table: string,
  event: 'INSERT' | 'UPDATE' | 'DELETE',
  when: string,
  change: () => Promise<T>,
): Promise<T> {
  await identity.dataSource.query(
    `CREATE CONSTRAINT TRIGGER test_fail_at_commit AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED
       FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION test_fail_at_commit()`,
  );
  try {
    return await change();
  } finally {
    await identity.dataSource.query(`DROP TRIGGER test_fail_at_commit ON ${table}`);
  }
}

const entries = (action: string, target: string) =>
  identity.dataSource.query('SELECT id FROM audit_entry WHERE action = $1 AND target = $2', [action, target]);

async function newRecord(key: string, registryId: string): Promise<{ id: string; uid: string; externalId: string }> {
  const externalId = `ext-${randomBytes(4).toString('hex')}`;
  const { body } = await request(identity.server)
    .post('/v1/users')
    .set(bearer(key))
    .send({ registryId, externalId, email: `${externalId}@example.com`, emailVerified: false, displayName: 'Ana Lima', locale: 'en' })
    .expect(201);
  return { id: body.id, uid: body.uid, externalId };
}

it('writes no users.delete entry for a deletion that fails at commit, and keeps the record', async () => {
  const { key, registryId } = await identity.newRegistry();
  const user = await newRecord(key, registryId);
  await failingAtCommit('user_mirror', 'DELETE', `OLD.id = '${user.id}'`, () =>
    request(identity.server).delete(`/v1/users/${user.id}`).set(bearer(key)).expect(500),
  );
  expect(await identity.dataSource.query('SELECT id FROM user_mirror WHERE id = $1', [user.id])).toEqual([{ id: user.id }]);
  expect(await entries('users.delete', user.id)).toEqual([]);
});

it('writes no sync.apply entry for a sync that fails at commit, and applies nothing', async () => {
  const { key, registryId } = await identity.newRegistry();
  await failingAtCommit('user_mirror', 'INSERT', `NEW.registry_id = '${registryId}'`, () =>
    request(identity.server)
      .post('/v1/sync')
      .set(bearer(key))
      .send({ registryId, records: [{ externalId: 'x', email: 'x@example.com', emailVerified: false, displayName: 'X', locale: 'en' }] })
      .expect(500),
  );
  expect(await identity.dataSource.query('SELECT id FROM user_mirror WHERE registry_id = $1', [registryId])).toEqual([]);
  expect(await entries('sync.apply', registryId)).toEqual([]);
});

it('writes no roles.grant or roles.revoke entry for a grant or a revocation that fails at commit', async () => {
  const uid = uuidv7();
  await identity.dataSource.query('INSERT INTO unified_user (uid) VALUES ($1)', [uid]);
  await failingAtCommit('role_binding', 'INSERT', `NEW.uid = '${uid}'`, () =>
    request(identity.server).post('/v1/role-bindings').set(platform()).send({ uid, role: 'settlement-approver' }).expect(500),
  );
  expect(await identity.dataSource.query('SELECT id FROM role_binding WHERE uid = $1', [uid])).toEqual([]);
  expect(await identity.dataSource.query(`SELECT id FROM audit_entry WHERE action = 'roles.grant' AND detail->>'uid' = $1`, [uid])).toEqual(
    [],
  );

  const granted = await request(identity.server).post('/v1/role-bindings').set(platform()).send({ uid, role: 'investor' }).expect(201);
  await failingAtCommit('role_binding', 'DELETE', `OLD.uid = '${uid}'`, () =>
    request(identity.server).delete(`/v1/role-bindings/${granted.body.id}`).set(platform()).expect(500),
  );
  expect(await identity.dataSource.query('SELECT id FROM role_binding WHERE uid = $1', [uid])).toEqual([{ id: granted.body.id }]);
  expect(await entries('roles.revoke', granted.body.id)).toEqual([]);
});

it('writes no users.merge entry for a merge that fails at commit, and merges nothing', async () => {
  const [survivor, merged] = [uuidv7(), uuidv7()];
  await identity.dataSource.query('INSERT INTO unified_user (uid) VALUES ($1), ($2)', [survivor, merged]);
  await failingAtCommit('user_merge', 'INSERT', `NEW.merged_uid = '${merged}'`, () =>
    request(identity.server).post('/v1/unified-users/merge').set(platform()).send({ survivorUid: survivor, mergedUid: merged }).expect(500),
  );
  expect(await identity.dataSource.query('SELECT merged_into FROM unified_user WHERE uid = $1', [merged])).toEqual([{ merged_into: null }]);
  expect(
    await identity.dataSource.query(`SELECT id FROM audit_entry WHERE action = 'users.merge' AND detail->>'mergedUid' = $1`, [merged]),
  ).toEqual([]);
});
