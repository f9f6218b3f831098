import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const uniqueEmail = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`;

function newUser(registryId: string, overrides: Record<string, unknown> = {}) {
  return {
    registryId,
    externalId: `ext-${randomBytes(4).toString('hex')}`,
    email: uniqueEmail('user'),
    emailVerified: true,
    displayName: 'Ana Lima',
    locale: 'en',
    ...overrides,
  };
}

async function createUser(key: string, body: Record<string, unknown>) {
  return (await request(identity.server).post('/v1/users').set(bearer(key)).send(body).expect(201)).body;
}

const countRows = async (sql: string, params: unknown[]) => ((await identity.dataSource.query(sql, params)) as { n: number }[])[0]!.n;

// Starting the embedded database can take longer than Jest's default 5 s on a loaded machine.
beforeAll(async () => {
  identity = await startIdentity();
}, 30_000);
afterAll(() => identity.close());

describe('POST /v1/users', () => {
  it('creates a record linked to a new unified user holding its fields, audits it, and reads it back', async () => {
    const { key, registryId } = await identity.newRegistry();
    const input = newUser(registryId);
    const created = await createUser(key, input);
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      registryId,
      externalId: input.externalId,
      email: input.email,
      emailVerified: true,
      displayName: 'Ana Lima',
      locale: 'en',
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await request(identity.server).get(`/v1/users/${created.id}`).set(bearer(key)).expect(200);
    expect(read.body).toEqual(created);
    const unified = await identity.dataSource.query(
      'SELECT email, email_verified, display_name, merged_into FROM unified_user WHERE uid = $1',
      [created.uid],
    );
    expect(unified).toEqual([{ email: input.email, email_verified: true, display_name: 'Ana Lima', merged_into: null }]);
    const audit = await identity.dataSource.query(`SELECT detail FROM audit_entry WHERE action = 'users.create' AND target = $1`, [
      created.id,
    ]);
    expect(audit).toEqual([
      {
        detail: expect.objectContaining({ registryId, externalId: input.externalId, uid: created.uid, unifiedUser: 'new', source: 'api' }),
      },
    ]);
  });

  it('refuses a second record with the same externalId in the registry with 409 and writes nothing', async () => {
    const { key, registryId } = await identity.newRegistry();
    const input = newUser(registryId);
    await createUser(key, input);
    const again = await request(identity.server)
      .post('/v1/users')
      .set(bearer(key))
      .send({ ...input, email: uniqueEmail('other') })
      .expect(409);
    expect(again.body.code).toBe('conflict');
    expect(await countRows('SELECT count(*)::int AS n FROM user_mirror WHERE registry_id = $1', [registryId])).toBe(1);
  });

  it('lets exactly one of many parallel creates of one externalId through, the others 409, with one record and one audit entry', async () => {
    const { key, registryId } = await identity.newRegistry();
    const input = newUser(registryId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(identity.server)
          .post('/v1/users')
          .set(bearer(key))
          .send({ ...input, displayName: `Copy ${i}` }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await countRows('SELECT count(*)::int AS n FROM user_mirror WHERE registry_id = $1', [registryId])).toBe(1);
    expect(
      await countRows("SELECT count(*)::int AS n FROM audit_entry WHERE action = 'users.create' AND detail->>'registryId' = $1", [
        registryId,
      ]),
    ).toBe(1);
  });

  it.each([
    ['an unknown field', { nickname: 'x' }, 'nickname', 'nickname is not an accepted field'],
    ['another locale', { locale: 'fr' }, 'locale', 'locale must be one of: en, zh-Hans'],
    ['a malformed email', { email: 'not-an-email' }, 'email', 'email must be an email address'],
    ['a blank display name', { displayName: '   ' }, 'displayName', 'displayName must not be blank'],
    [
      'an externalId with a space',
      { externalId: 'has space' },
      'externalId',
      'externalId must be 1-200 printable characters without spaces',
    ],
    [
      'an externalId over 200 characters',
      { externalId: 'x'.repeat(201) },
      'externalId',
      'externalId must be 1-200 printable characters without spaces',
    ],
    ['no emailVerified', { emailVerified: undefined }, 'emailVerified', 'emailVerified must be a boolean value'],
    [
      'a display name over 200 characters',
      { displayName: 'x'.repeat(201) },
      'displayName',
      'displayName must be shorter than or equal to 200 characters',
    ],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_, change, field, message) => {
    const { key, registryId } = await identity.newRegistry();
    const response = await request(identity.server).post('/v1/users').set(bearer(key)).send(newUser(registryId, change)).expect(400);
    expect(response.body.errors).toContainEqual({ field, message });
    expect(await countRows('SELECT count(*)::int AS n FROM user_mirror WHERE registry_id = $1', [registryId])).toBe(0);
  });
});

describe('linking to unified users', () => {
  it('links records with the same verified email in two registries of one organization to one uid, whatever the case of the email', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const email = uniqueEmail('Ana');
    const a = await createUser(first.key, newUser(first.registryId, { email }));
    const b = await createUser(second.key, newUser(second.registryId, { email: email.toUpperCase() }));
    expect(b.uid).toBe(a.uid);
    expect(await countRows('SELECT count(*)::int AS n FROM unified_user WHERE lower(email) = lower($1)', [email])).toBe(1);
  });

  it('links records whose verified emails are the same text in two Unicode normal forms (NFC, NFD) to one uid', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const composed = uniqueEmail('jos\u00e9');
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    const a = await createUser(first.key, newUser(first.registryId, { email: composed }));
    const b = await createUser(second.key, newUser(second.registryId, { email: decomposed }));
    expect(b.uid).toBe(a.uid);
    expect(b.email).toBe(composed);
    const third = await identity.newRegistry(first.key);
    const synced = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(third.key))
      .send({ registryId: third.registryId, records: [{ ...newUser(third.registryId, { email: decomposed }), registryId: undefined }] })
      .expect(200);
    expect(synced.body.results[0]).toMatchObject({ outcome: 'created', uid: a.uid });
    const listed = await request(identity.server)
      .get('/v1/users')
      .query({ registryId: first.registryId, email: decomposed })
      .set(bearer(first.key))
      .expect(200);
    expect(listed.body.items.map((user: { id: string }) => user.id)).toEqual([a.id]);
    const renamed = uniqueEmail('ren\u00e9e');
    const patched = await request(identity.server)
      .patch(`/v1/users/${b.id}`)
      .set(bearer(second.key))
      .send({ email: renamed.normalize('NFD') })
      .expect(200);
    expect(patched.body.email).toBe(renamed);
  });

  it('never links by an unverified email, on either side, within one organization', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const email = uniqueEmail('bo');
    const unverified = await createUser(first.key, newUser(first.registryId, { email, emailVerified: false }));
    const verified = await createUser(second.key, newUser(second.registryId, { email, emailVerified: true }));
    const unverifiedAgain = await createUser(second.key, newUser(second.registryId, { email, emailVerified: false }));
    expect(new Set([unverified.uid, verified.uid, unverifiedAgain.uid]).size).toBe(3);
  });

  it('never links the records of two apps of no organization by a verified email: each such app vouches only for its own', async () => {
    const [first, second] = [await identity.newRegistry(identity.platformKey), await identity.newRegistry(identity.platformKey)];
    const email = uniqueEmail('cy');
    const a = await createUser(identity.platformKey, newUser(first.registryId, { email }));
    const b = await createUser(identity.platformKey, newUser(second.registryId, { email }));
    const again = await createUser(identity.platformKey, newUser(first.registryId, { email }));
    expect(b.uid).not.toBe(a.uid);
    expect(again.uid).toBe(a.uid);
  });
});

describe('PATCH /v1/users/{id}', () => {
  it('changes the given fields and keeps the link, even to a verified email another unified user holds', async () => {
    const { key, registryId } = await identity.newRegistry();
    const taken = await createUser(key, newUser(registryId));
    const user = await createUser(key, newUser(registryId, { emailVerified: false }));
    const updated = await request(identity.server)
      .patch(`/v1/users/${user.id}`)
      .set(bearer(key))
      .send({ email: taken.email, emailVerified: true, locale: 'zh-Hans' })
      .expect(200);
    expect(updated.body).toMatchObject({
      id: user.id,
      uid: user.uid,
      email: taken.email,
      emailVerified: true,
      locale: 'zh-Hans',
      displayName: 'Ana Lima',
    });
    expect(updated.body.uid).not.toBe(taken.uid);
    const audit = await identity.dataSource.query(`SELECT detail FROM audit_entry WHERE action = 'users.update' AND target = $1`, [
      user.id,
    ]);
    expect(audit[0].detail.changed).toEqual(['email', 'emailVerified', 'locale']);
  });

  it('writes nothing when the given values are those stored', async () => {
    const { key, registryId } = await identity.newRegistry();
    const user = await createUser(key, newUser(registryId));
    const same = await request(identity.server)
      .patch(`/v1/users/${user.id}`)
      .set(bearer(key))
      .send({ displayName: user.displayName, locale: 'en' })
      .expect(200);
    expect(same.body).toEqual(user);
    expect(await countRows(`SELECT count(*)::int AS n FROM audit_entry WHERE action = 'users.update' AND target = $1`, [user.id])).toBe(0);
  });

  it('refuses an empty change, an unknown field and a malformed id with 400', async () => {
    const { key, registryId } = await identity.newRegistry();
    const user = await createUser(key, newUser(registryId));
    const empty = await request(identity.server).patch(`/v1/users/${user.id}`).set(bearer(key)).send({}).expect(400);
    expect(empty.body.detail).toContain('at least one field');
    const unknown = await request(identity.server).patch(`/v1/users/${user.id}`).set(bearer(key)).send({ uid: user.uid }).expect(400);
    expect(unknown.body.errors).toEqual([{ field: 'uid', message: 'uid is not an accepted field' }]);
    await request(identity.server).patch('/v1/users/not-a-uuid').set(bearer(key)).send({ locale: 'en' }).expect(400);
    for (const [change, field] of [
      [{ email: 'not-an-email' }, 'email'],
      [{ displayName: '   ' }, 'displayName'],
      [{ locale: 'fr' }, 'locale'],
    ] as const) {
      const refused = await request(identity.server).patch(`/v1/users/${user.id}`).set(bearer(key)).send(change).expect(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const stored = await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(key)).expect(200);
    expect(stored.body).toEqual(user);
  });
});

describe('DELETE /v1/users/{id}', () => {
  it('keeps the unified user while another record links to it, and removes it with the last one', async () => {
    const first = await identity.newRegistry();
    const second = await identity.newRegistry(first.key);
    const email = uniqueEmail('cy');
    const a = await createUser(first.key, newUser(first.registryId, { email }));
    const b = await createUser(second.key, newUser(second.registryId, { email }));
    await request(identity.server).delete(`/v1/users/${a.id}`).set(bearer(first.key)).expect(204);
    await request(identity.server).get(`/v1/users/${a.id}`).set(bearer(first.key)).expect(404);
    expect(await countRows('SELECT count(*)::int AS n FROM unified_user WHERE uid = $1', [a.uid])).toBe(1);
    await request(identity.server).delete(`/v1/users/${b.id}`).set(bearer(second.key)).expect(204);
    expect(await countRows('SELECT count(*)::int AS n FROM unified_user WHERE uid = $1', [a.uid])).toBe(0);
    const audit = await identity.dataSource.query(
      `SELECT target, detail FROM audit_entry WHERE action = 'users.delete' AND detail->>'uid' = $1 ORDER BY id`,
      [a.uid],
    );
    expect(audit.map((entry: { detail: { unifiedUserDeleted: boolean } }) => entry.detail.unifiedUserDeleted)).toEqual([false, true]);
  });

  it('keeps the unified user while an app link or a role binding refers to it', async () => {
    const { key, registryId } = await identity.newRegistry();
    const linked = await createUser(key, newUser(registryId));
    const granted = await createUser(key, newUser(registryId));
    await identity.dataSource.query('INSERT INTO app_link (uid, registry_id) VALUES ($1, $2)', [linked.uid, registryId]);
    await identity.dataSource.query(`INSERT INTO role_binding (id, uid, role) VALUES (gen_random_uuid(), $1, 'investor')`, [granted.uid]);
    await request(identity.server).delete(`/v1/users/${linked.id}`).set(bearer(key)).expect(204);
    await request(identity.server).delete(`/v1/users/${granted.id}`).set(bearer(key)).expect(204);
    expect(await countRows('SELECT count(*)::int AS n FROM unified_user WHERE uid = ANY($1)', [[linked.uid, granted.uid]])).toBe(2);
  });

  it('deletes the last record of a person whose merge was undone, keeping the unified user the merge record names', async () => {
    const { key, registryId } = await identity.newRegistry();
    const survivor = await createUser(key, newUser(registryId));
    const merged = await createUser(key, newUser(registryId));
    const platform = bearer(identity.platformKey);
    const merge = await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform)
      .send({ survivorUid: survivor.uid, mergedUid: merged.uid })
      .expect(201);
    await request(identity.server).post(`/v1/merges/${merge.body.id}/unmerge`).set(platform).expect(200);
    await request(identity.server).delete(`/v1/users/${merged.id}`).set(bearer(key)).expect(204);
    await request(identity.server).delete(`/v1/users/${survivor.id}`).set(bearer(key)).expect(204);
    expect(await countRows('SELECT count(*)::int AS n FROM unified_user WHERE uid = ANY($1)', [[survivor.uid, merged.uid]])).toBe(2);
    expect(await countRows('SELECT count(*)::int AS n FROM user_mirror WHERE registry_id = $1', [registryId])).toBe(0);
  });
});

describe('GET /v1/users', () => {
  it('filters by email, case-insensitively', async () => {
    const { key, registryId } = await identity.newRegistry();
    const email = uniqueEmail('dee');
    const match = await createUser(key, newUser(registryId, { email, emailVerified: false }));
    await createUser(key, newUser(registryId));
    const listed = await request(identity.server)
      .get('/v1/users')
      .query({ registryId, email: email.toUpperCase() })
      .set(bearer(key))
      .expect(200);
    expect(listed.body).toEqual({ items: [match], nextCursor: null });
  });

  it('walks every record exactly once, page by page, in id order', async () => {
    const { key, registryId } = await identity.newRegistry();
    const records = Array.from({ length: 23 }, (_, i) => ({
      externalId: `walk-${i}`,
      email: uniqueEmail(`walk${i}`),
      emailVerified: false,
      displayName: `Walker ${i}`,
      locale: 'en',
    }));
    await request(identity.server).post('/v1/sync').set(bearer(key)).send({ registryId, records }).expect(200);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await request(identity.server)
        .get('/v1/users')
        .query({ registryId, limit: 5, ...(cursor ? { cursor } : {}) })
        .set(bearer(key))
        .expect(200);
      seen.push(...page.body.items.map((user: { externalId: string }) => user.externalId));
      cursor = page.body.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen.sort()).toEqual(records.map((r) => r.externalId).sort());
    const ids = await identity.dataSource.query('SELECT id FROM user_mirror WHERE registry_id = $1 ORDER BY id', [registryId]);
    expect(ids).toHaveLength(23);
  });

  it('walks every record that exists throughout exactly once, in id order, while records are created and deleted between pages', async () => {
    // Between pages: create a record, or delete one (the one just served, or the first or last still live).
    const change = fc.constantFrom('none', 'create', 'delete-served', 'delete-first', 'delete-last');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 2, 5, 100), fc.array(change, { maxLength: 10 }), async (limit, changes) => {
        // A registry (and key) a run, so that no run meets the key's write limit.
        const { key, registryId } = await identity.newRegistry();
        const live: string[] = [];
        const create = async () => live.push((await createUser(key, newUser(registryId))).id);
        for (let i = 0; i < 5; i++) await create();
        const before = new Set(live);
        const deleted = new Set<string>();
        const remove = async (id: string | undefined) => {
          if (id === undefined || deleted.has(id)) return;
          await request(identity.server).delete(`/v1/users/${id}`).set(bearer(key)).expect(204);
          deleted.add(id);
          live.splice(live.indexOf(id), 1);
        };
        const seen: string[] = [];
        let cursor: string | undefined;
        let step = 0;
        do {
          const page = await request(identity.server)
            .get('/v1/users')
            .query({ registryId, limit, ...(cursor ? { cursor } : {}) })
            .set(bearer(key))
            .expect(200);
          const ids: string[] = page.body.items.map((user: { id: string }) => user.id);
          // An empty page only when the records after the cursor were deleted since the page before.
          if (ids.length === 0) expect(changes[step - 1]).toMatch(/^delete/);
          seen.push(...ids);
          cursor = page.body.nextCursor ?? undefined;
          const next = changes[step++];
          if (next === 'create') await create();
          else if (next === 'delete-served') await remove(ids.at(-1));
          else if (next === 'delete-first') await remove(live[0]);
          else if (next === 'delete-last') await remove(live.at(-1));
        } while (cursor);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual([...seen].sort());
        expect([...before].filter((id) => !deleted.has(id) && !seen.includes(id))).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  it('refuses a missing registryId, an unknown parameter and a cursor of another list with 400', async () => {
    const { key, registryId } = await identity.newRegistry();
    await identity.newRegistry();
    await request(identity.server).get('/v1/users').set(bearer(key)).expect(400);
    await request(identity.server).get('/v1/users').query({ registryId, role: 'x' }).set(bearer(key)).expect(400);
    const email = await request(identity.server).get('/v1/users').query({ registryId, email: 'not-an-email' }).set(bearer(key)).expect(400);
    expect(email.body.errors[0].field).toBe('email');
    const apps = await request(identity.server).get('/v1/apps').query({ limit: 1 }).set(bearer(identity.platformKey)).expect(200);
    const foreignCursor = apps.body.nextCursor as string;
    const response = await request(identity.server)
      .get('/v1/users')
      .query({ registryId, cursor: foreignCursor })
      .set(bearer(key))
      .expect(400);
    expect(response.body.errors).toEqual([{ field: 'cursor', message: 'cursor must be a nextCursor value from this list' }]);
  });
});

describe('users of another registry', () => {
  it('are invisible to other keys: 404 for list, read, create, update and delete, and nothing changes', async () => {
    const owner = await identity.newRegistry();
    const stranger = await identity.newRegistry();
    const user = await createUser(owner.key, newUser(owner.registryId));
    await request(identity.server).get('/v1/users').query({ registryId: owner.registryId }).set(bearer(stranger.key)).expect(404);
    await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(stranger.key)).expect(404);
    await request(identity.server).post('/v1/users').set(bearer(stranger.key)).send(newUser(owner.registryId)).expect(404);
    await request(identity.server).patch(`/v1/users/${user.id}`).set(bearer(stranger.key)).send({ displayName: 'Mallory' }).expect(404);
    await request(identity.server).delete(`/v1/users/${user.id}`).set(bearer(stranger.key)).expect(404);
    const unknownId = await request(identity.server)
      .get('/v1/users/0190a4c2-0000-7000-8000-000000000000')
      .set(bearer(stranger.key))
      .expect(404);
    const foreignId = await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(stranger.key)).expect(404);
    expect(foreignId.body.detail.replace(user.id, '')).toBe(unknownId.body.detail.replace('0190a4c2-0000-7000-8000-000000000000', ''));
    const stored = await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(owner.key)).expect(200);
    expect(stored.body).toEqual(user);
    expect(await countRows('SELECT count(*)::int AS n FROM user_mirror WHERE registry_id = $1', [owner.registryId])).toBe(1);
    await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(identity.platformKey)).expect(200);
  });

  it('are gone with their deleted app', async () => {
    const { key, registryId } = await identity.newRegistry();
    const user = await createUser(key, newUser(registryId));
    await request(identity.server).delete(`/v1/apps/${registryId}`).set(bearer(key)).expect(204);
    await request(identity.server).get(`/v1/users/${user.id}`).set(bearer(key)).expect(404);
    await request(identity.server).get('/v1/users').query({ registryId }).set(bearer(key)).expect(404);
    await request(identity.server).post('/v1/users').set(bearer(key)).send(newUser(registryId)).expect(404);
  });
});
