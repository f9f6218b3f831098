import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const uniqueEmail = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`;

function record(externalId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    externalId,
    email: uniqueEmail(externalId),
    emailVerified: false,
    displayName: `User ${externalId}`,
    locale: 'en',
    ...overrides,
  };
}

const sync = (key: string, body: Record<string, unknown>) => request(identity.server).post('/v1/sync').set(bearer(key)).send(body);
const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => identity.dataSource.query(sql, params);

/** Everything a sync can change: the registry's mirror records and every unified user. */
async function dump(registryId: string) {
  return {
    mirror: await query('SELECT * FROM user_mirror WHERE registry_id = $1 ORDER BY id', [registryId]),
    unified: await query('SELECT * FROM unified_user ORDER BY uid'),
  };
}

// Starting the embedded database can take longer than Jest's default 5 s on a loaded machine.
beforeAll(async () => {
  identity = await startIdentity();
}, 30_000);
afterAll(() => identity.close());

describe('POST /v1/sync', () => {
  it('answers each record in request order: created, updated, unchanged, deleted or rejected with its reason', async () => {
    const { key, registryId } = await identity.newRegistry();
    const kept = record('kept');
    const renamed = record('renamed');
    const leaving = record('leaving');
    const first = await sync(key, { registryId, records: [kept, renamed, leaving] }).expect(200);
    const uids = first.body.results.map((result: { uid: string }) => result.uid);

    const joining = record('joining', { emailVerified: true });
    const { body } = await sync(key, {
      registryId,
      records: [
        joining,
        { ...renamed, displayName: 'Renamed', locale: 'zh-Hans' },
        kept,
        { ...leaving, deleted: true },
        record('broken', { email: 'not-an-email' }),
        { ...joining, displayName: 'Twin' },
        { ...record('nosy'), role: 'admin' },
        { ...record('ghost'), deleted: true },
        { email: 'x@example.com' },
      ],
    }).expect(200);

    expect(body).toEqual({
      registryId,
      applied: true,
      changed: true,
      counts: { created: 1, updated: 1, unchanged: 2, deleted: 1, rejected: 4 },
      results: [
        { index: 0, externalId: 'joining', outcome: 'created', uid: expect.any(String) },
        { index: 1, externalId: 'renamed', outcome: 'updated', uid: uids[1] },
        { index: 2, externalId: 'kept', outcome: 'unchanged', uid: uids[0] },
        { index: 3, externalId: 'leaving', outcome: 'deleted', uid: uids[2] },
        { index: 4, externalId: 'broken', outcome: 'rejected', reason: 'email must be an email address' },
        { index: 5, externalId: 'joining', outcome: 'rejected', reason: 'duplicates externalId of record 0' },
        { index: 6, externalId: 'nosy', outcome: 'rejected', reason: 'role is not an accepted field' },
        { index: 7, externalId: 'ghost', outcome: 'unchanged' },
        {
          index: 8,
          externalId: null,
          outcome: 'rejected',
          reason: expect.stringContaining('externalId must be a string'),
        },
      ],
    });
    const stored = await query('SELECT external_id, display_name, locale FROM user_mirror WHERE registry_id = $1 ORDER BY external_id', [
      registryId,
    ]);
    expect(stored).toEqual([
      { external_id: 'joining', display_name: 'User joining', locale: 'en' },
      { external_id: 'kept', display_name: 'User kept', locale: 'en' },
      { external_id: 'renamed', display_name: 'Renamed', locale: 'zh-Hans' },
    ]);
    expect(await query('SELECT uid FROM unified_user WHERE uid = $1', [uids[2]])).toEqual([]);

    const audit = await query<{ action: string; detail: Record<string, unknown> }>(
      `SELECT action, detail FROM audit_entry WHERE (action = 'sync.apply' AND target = $1) OR (action LIKE 'users.%' AND detail->>'registryId' = $1) ORDER BY id`,
      [registryId],
    );
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'sync.apply',
      'sync.apply',
      'users.create',
      'users.create',
      'users.create',
      'users.create',
      'users.delete',
      'users.update',
    ]);
    expect(audit.filter((entry) => entry.action === 'sync.apply').map((entry) => entry.detail)).toContainEqual(
      expect.objectContaining({ applied: true, changed: true, created: 1, updated: 1, unchanged: 2, deleted: 1, rejected: 4 }),
    );
    expect(audit.find((entry) => entry.detail['externalId'] === 'joining')!.detail).toMatchObject({ source: 'sync', unifiedUser: 'new' });
  });

  it('is idempotent: the same batch again changes nothing and says so', async () => {
    const { key, registryId } = await identity.newRegistry();
    await sync(key, { registryId, records: [record('going')] }).expect(200);
    const batch = {
      registryId,
      records: [
        record('a', { emailVerified: true }),
        record('b'),
        record('c', { locale: 'zh-Hans' }),
        { ...record('going'), deleted: true },
        { ...record('never'), deleted: true },
      ],
    };
    const first = await sync(key, batch).expect(200);
    expect(first.body.changed).toBe(true);
    expect(first.body.counts).toEqual({ created: 3, updated: 0, unchanged: 1, deleted: 1, rejected: 0 });
    const before = await dump(registryId);

    const second = await sync(key, batch).expect(200);
    expect(second.body.applied).toBe(true);
    expect(second.body.changed).toBe(false);
    expect(second.body.counts).toEqual({ created: 0, updated: 0, unchanged: 5, deleted: 0, rejected: 0 });
    expect(second.body.results.map((result: { outcome: string }) => result.outcome)).toEqual(Array(5).fill('unchanged'));
    expect(second.body.results.slice(0, 3).map((result: { uid: string }) => result.uid)).toEqual(
      first.body.results.slice(0, 3).map((result: { uid: string }) => result.uid),
    );
    expect(await dump(registryId)).toEqual(before);
    const writes = await query(`SELECT 1 FROM audit_entry WHERE action LIKE 'users.%' AND detail->>'registryId' = $1`, [registryId]);
    expect(writes).toHaveLength(5);
  });

  it('with atomic: true and one bad record writes nothing and says applied false', async () => {
    const { key, registryId } = await identity.newRegistry();
    const before = await dump(registryId);
    const { body } = await sync(key, {
      registryId,
      atomic: true,
      records: [record('good'), record('bad', { locale: 'fr' }), record('fine')],
    }).expect(200);
    expect(body).toMatchObject({
      registryId,
      applied: false,
      changed: false,
      counts: { created: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 3 },
    });
    expect(body.results[1]).toEqual({ index: 1, externalId: 'bad', outcome: 'rejected', reason: 'locale must be one of: en, zh-Hans' });
    expect(body.results[0]).toEqual({
      index: 0,
      externalId: 'good',
      outcome: 'rejected',
      reason: 'not applied: the batch is atomic and 1 record(s) in it were rejected',
    });
    expect(await dump(registryId)).toEqual(before);
    expect(before.mirror).toEqual([]);
    const audited = await query(
      `SELECT outcome, detail->>'applied' AS applied FROM audit_entry WHERE action = 'sync.apply' AND target = $1`,
      [registryId],
    );
    expect(audited).toEqual([{ outcome: 'failure', applied: 'false' }]);
  });

  it('applies an atomic batch whose records are all valid', async () => {
    const { key, registryId } = await identity.newRegistry();
    const { body } = await sync(key, { registryId, atomic: true, records: [record('one'), record('two')] }).expect(200);
    expect(body).toMatchObject({ applied: true, changed: true, counts: { created: 2 } });
  });

  it('refuses 1001 records with a 400 and writes nothing (the input policy counts them before the DTO)', async () => {
    const { key, registryId } = await identity.newRegistry();
    const before = await dump(registryId);
    const records = Array.from({ length: 1001 }, (_, i) => record(`r${i}`));
    const response = await sync(key, { registryId, records }).expect(400);
    expect(response.body.errors).toEqual([{ field: 'records', message: 'records has 1001 items, more than the 1000 an array may have' }]);
    expect(await dump(registryId)).toEqual(before);
  });

  it('applies 1000 records in one batch', async () => {
    const { key, registryId } = await identity.newRegistry();
    const records = Array.from({ length: 1000 }, (_, i) => record(`r${i}`, { emailVerified: i % 2 === 0 }));
    const { body } = await sync(key, { registryId, records }).expect(200);
    expect(body.counts).toEqual({ created: 1000, updated: 0, unchanged: 0, deleted: 0, rejected: 0 });
    expect(await query('SELECT 1 FROM user_mirror WHERE registry_id = $1', [registryId])).toHaveLength(1000);
  }, 60_000);

  it.each([
    ['an unknown field', { extra: true }, 'extra', 'extra is not an accepted field'],
    ['no records', { records: [] }, 'records', 'records must contain at least 1 elements'],
    ['a record that is not an object', { records: ['user-1'] }, 'records', 'each record must be an object'],
    ['a malformed registryId', { registryId: 'portal' }, 'registryId', 'registryId must look like reg_…'],
    ['an atomic that is not a boolean', { atomic: 'yes' }, 'atomic', 'atomic must be a boolean value'],
  ])('refuses a request with %s with a 400', async (_, change, field, message) => {
    const { key, registryId } = await identity.newRegistry();
    const response = await sync(key, { registryId, records: [record('a')], ...change }).expect(400);
    expect(response.body.errors).toEqual([{ field, message }]);
    expect(await query('SELECT 1 FROM user_mirror WHERE registry_id = $1', [registryId])).toEqual([]);
  });

  it('rejects a record whose deleted is not a boolean, and deletes nothing', async () => {
    const { key, registryId } = await identity.newRegistry();
    await sync(key, { registryId, records: [record('kept')] }).expect(200);
    const before = await dump(registryId);
    const { body } = await sync(key, { registryId, records: [record('kept', { deleted: 'yes' })] }).expect(200);
    expect(body.results).toEqual([{ index: 0, externalId: 'kept', outcome: 'rejected', reason: 'deleted must be a boolean value' }]);
    expect(await dump(registryId)).toEqual(before);
  });

  it('leaves nothing behind when the database fails midway through a batch', async () => {
    const { key, registryId } = await identity.newRegistry();
    await sync(key, { registryId, records: [record('existing')] }).expect(200);
    const before = await dump(registryId);
    const auditBefore = await query('SELECT id FROM audit_entry ORDER BY id');
    await identity.dataSource.query(`CREATE FUNCTION test_refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.external_id = 'boom' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await identity.dataSource.query(
      'CREATE TRIGGER test_refuse_boom BEFORE INSERT ON user_mirror FOR EACH ROW EXECUTE FUNCTION test_refuse_boom()',
    );
    try {
      const records = [
        record('first', { emailVerified: true }),
        { ...record('existing'), displayName: 'Changed' },
        record('boom'),
        record('last'),
      ];
      await sync(key, { registryId, records }).expect(500);
    } finally {
      await identity.dataSource.query('DROP TRIGGER test_refuse_boom ON user_mirror');
      await identity.dataSource.query('DROP FUNCTION test_refuse_boom()');
    }
    expect(await dump(registryId)).toEqual(before);
    expect(await query('SELECT id FROM audit_entry ORDER BY id')).toEqual(auditBefore);
  });
});

describe('linking in a sync', () => {
  it('links two records of one batch with the same new verified email to one new unified user', async () => {
    const { key, registryId } = await identity.newRegistry();
    const email = uniqueEmail('twin');
    const { body } = await sync(key, {
      registryId,
      records: [
        record('t1', { email, emailVerified: true }),
        record('t2', { email: email.toUpperCase(), emailVerified: true }),
        record('t3', { email }),
      ],
    }).expect(200);
    const [t1, t2, t3] = body.results as { uid: string }[];
    expect(t2!.uid).toBe(t1!.uid);
    expect(t3!.uid).not.toBe(t1!.uid);
    expect(await query('SELECT uid FROM unified_user WHERE lower(email) = lower($1) AND email_verified', [email])).toEqual([
      { uid: t1!.uid },
    ]);
  });

  it('links the registries of one organization by verified email only', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const email = uniqueEmail('cross');
    const a = await sync(first.key, { registryId: first.registryId, records: [record('a', { email, emailVerified: true })] }).expect(200);
    const b = await sync(second.key, {
      registryId: second.registryId,
      records: [record('b', { email, emailVerified: true }), record('c', { email })],
    }).expect(200);
    expect(b.body.results[0].uid).toBe(a.body.results[0].uid);
    expect(b.body.results[1].uid).not.toBe(a.body.results[0].uid);
  });

  it('never links the records of two organizations by email, verified or not: each organization vouches for its own', async () => {
    const first = await identity.newRegistry();
    const other = await identity.newRegistry();
    const email = uniqueEmail('elsewhere');
    const a = await sync(first.key, { registryId: first.registryId, records: [record('a', { email, emailVerified: true })] }).expect(200);
    const b = await sync(other.key, { registryId: other.registryId, records: [record('b', { email, emailVerified: true })] }).expect(200);
    expect(b.body.results[0]).toMatchObject({ outcome: 'created' });
    expect(b.body.results[0].uid).not.toBe(a.body.results[0].uid);
    const unified = await query<{ uid: string }>(
      'SELECT uid FROM unified_user WHERE lower(email) = lower($1) AND email_verified ORDER BY uid',
      [email],
    );
    expect(unified.map((row) => row.uid).sort()).toEqual([a.body.results[0].uid, b.body.results[0].uid].sort());
  });

  it('a sync delete keeps the unified user while another registry links to it, and removes it with the last link', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const shared = record('shared', { emailVerified: true });
    const a = await sync(first.key, { registryId: first.registryId, records: [shared] }).expect(200);
    await sync(second.key, { registryId: second.registryId, records: [shared] }).expect(200);
    const uid = a.body.results[0].uid as string;
    await sync(first.key, { registryId: first.registryId, records: [{ ...shared, deleted: true }] }).expect(200);
    expect(await query('SELECT uid FROM unified_user WHERE uid = $1', [uid])).toHaveLength(1);
    const last = await sync(second.key, { registryId: second.registryId, records: [{ ...shared, deleted: true }] }).expect(200);
    expect(last.body.results[0]).toEqual({ index: 0, externalId: 'shared', outcome: 'deleted', uid });
    expect(await query('SELECT uid FROM unified_user WHERE uid = $1', [uid])).toEqual([]);
  });

  it('concurrent syncs in two registries of one organization with the same new verified email link to one unified user', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const email = uniqueEmail('race');
    const [a, b] = await Promise.all([
      sync(first.key, { registryId: first.registryId, records: [record('x', { email, emailVerified: true })] }),
      sync(second.key, { registryId: second.registryId, records: [record('y', { email, emailVerified: true })] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.results[0].uid).toBe(b.body.results[0].uid);
  });

  it('concurrent syncs of one registry do not interleave: each record is created once', async () => {
    const { key, registryId } = await identity.newRegistry();
    const batch = { registryId, records: Array.from({ length: 20 }, (_, i) => record(`c${i}`)) };
    const responses = await Promise.all([sync(key, batch), sync(key, batch), sync(key, batch)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(responses.map((response) => response.body.changed).sort()).toEqual([false, false, true]);
    expect(await query('SELECT 1 FROM user_mirror WHERE registry_id = $1', [registryId])).toHaveLength(20);
  });
});

describe('a sync into another registry', () => {
  it('is a 404 for a key the registry is not bound to, and writes nothing', async () => {
    const owner = await identity.newRegistry();
    const stranger = await identity.newRegistry();
    const before = await dump(owner.registryId);
    const response = await sync(stranger.key, { registryId: owner.registryId, records: [record('intruder')] }).expect(404);
    expect(response.body.code).toBe('not_found');
    const unknown = await sync(stranger.key, { registryId: 'reg_00000000000000000000', records: [record('intruder')] }).expect(404);
    expect(response.body.detail.replace(owner.registryId, '')).toBe(unknown.body.detail.replace('reg_00000000000000000000', ''));
    expect(await dump(owner.registryId)).toEqual(before);
  });

  it('is allowed to a platform key', async () => {
    const owner = await identity.newRegistry();
    const { body } = await sync(identity.platformKey, { registryId: owner.registryId, records: [record('operator')] }).expect(200);
    expect(body.counts.created).toBe(1);
  });

  it('is a 404 once the app is deleted', async () => {
    const { key, registryId } = await identity.newRegistry();
    await request(identity.server).delete(`/v1/apps/${registryId}`).set(bearer(key)).expect(204);
    await sync(key, { registryId, records: [record('late')] }).expect(404);
  });
});
