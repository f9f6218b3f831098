import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
let registries: string[];
let organizations: string[];
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });

beforeAll(async () => {
  identity = await startIdentity();
  registries = [];
  for (const name of ['Portal One', 'Portal Two', 'Portal Three']) {
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set(platform())
      .send({ name, type: 'Traditional', redirectUris: ['https://portal.example/callback'] })
      .expect(201);
    registries.push(body.app.registryId);
  }
  organizations = [];
  for (const name of ['Org One', 'Org Two']) {
    const { body } = await request(identity.server).post('/v1/organizations').set(platform()).send({ name }).expect(201);
    organizations.push(body.id);
  }
});
afterAll(() => identity.close());

async function newUser(fields: { email?: string; emailVerified?: boolean; emailScope?: string } = {}): Promise<string> {
  const uid = uuidv7();
  await identity.dataSource.query(
    'INSERT INTO unified_user (uid, email, email_verified, display_name, email_scope) VALUES ($1, $2, $3, $4, $5)',
    [
      uid,
      fields.email ?? `${randomBytes(4).toString('hex')}@example.org`,
      fields.emailVerified ?? false,
      `User ${uid.slice(-4)}`,
      fields.emailScope ?? `test:${uid}`,
    ],
  );
  return uid;
}

async function newMirror(uid: string, registryId: string): Promise<string> {
  const id = uuidv7();
  await identity.dataSource.query(
    `INSERT INTO user_mirror (id, registry_id, external_id, email, email_verified, display_name, locale, uid, created_at, updated_at)
     VALUES ($1, $2, $3, $4, true, 'Mirror', 'en', $5, '2024-02-01 08:00:00.111111+00', '2024-02-02 09:00:00.222222+00')`,
    [id, registryId, `ext-${randomBytes(4).toString('hex')}`, `${randomBytes(4).toString('hex')}@partner.example`, uid],
  );
  return id;
}

/** Microsecond timestamps, so that a restore through JavaScript dates (milliseconds) would show. */
async function link(uid: string, registryId: string, linkedAt = '2024-03-01 10:00:00.123456+00'): Promise<void> {
  await identity.dataSource.query('INSERT INTO app_link (uid, registry_id, linked_at) VALUES ($1, $2, $3)', [uid, registryId, linkedAt]);
}

async function bind(
  uid: string,
  role: string,
  organizationId: string | null,
  grantedAt = '2024-04-01 11:00:00.654321+00',
): Promise<string> {
  const id = uuidv7();
  await identity.dataSource.query('INSERT INTO role_binding (id, uid, role, organization_id, granted_at) VALUES ($1, $2, $3, $4, $5)', [
    id,
    uid,
    role,
    organizationId,
    grantedAt,
  ]);
  return id;
}

/** Every row of the four tables that belongs to the users, as PostgreSQL stores it (jsonb keeps microseconds). */
async function dump(uids: string[]): Promise<Record<string, unknown[]>> {
  const rows = async (sql: string) => ((await identity.dataSource.query(sql, [uids])) as { row: unknown }[]).map((r) => r.row);
  return {
    unified_user: await rows('SELECT to_jsonb(t) AS row FROM unified_user t WHERE uid = ANY($1) ORDER BY uid'),
    user_mirror: await rows('SELECT to_jsonb(t) AS row FROM user_mirror t WHERE uid = ANY($1) ORDER BY id'),
    app_link: await rows('SELECT to_jsonb(t) AS row FROM app_link t WHERE uid = ANY($1) ORDER BY uid, registry_id'),
    role_binding: await rows('SELECT to_jsonb(t) AS row FROM role_binding t WHERE uid = ANY($1) ORDER BY id'),
  };
}

async function countMerges(): Promise<number> {
  return (await identity.dataSource.query('SELECT count(*)::int AS n FROM user_merge'))[0].n;
}

const merge = (survivorUid: string, mergedUid: string) =>
  request(identity.server).post('/v1/unified-users/merge').set(platform()).send({ survivorUid, mergedUid });
const unmerge = (mergeId: string) => request(identity.server).post(`/v1/merges/${mergeId}/unmerge`).set(platform());

describe('GET /v1/unified-users/{uid}', () => {
  it('reads a unified user with its apps, by mirror record and by operator link, and its roles', async () => {
    const uid = await newUser({ email: 'reader@example.org', emailVerified: true });
    await newMirror(uid, registries[0]!);
    await link(uid, registries[0]!);
    await link(uid, registries[1]!);
    const bindingId = await bind(uid, 'investor', organizations[0]!);
    const { body } = await request(identity.server).get(`/v1/unified-users/${uid}`).set(platform()).expect(200);
    expect(body).toEqual({
      uid,
      email: 'reader@example.org',
      emailVerified: true,
      displayName: `User ${uid.slice(-4)}`,
      aliases: [],
      apps: [
        ...[
          { registryId: registries[0], via: 'link' },
          { registryId: registries[0], via: 'mirror' },
        ],
        { registryId: registries[1], via: 'link' },
      ].sort((a, b) => a.registryId!.localeCompare(b.registryId!) || a.via.localeCompare(b.via)),
      roles: [{ id: bindingId, uid, role: 'investor', organizationId: organizations[0], grantedAt: '2024-04-01T11:00:00.654Z' }],
    });
  });

  it('reads a merged uid as its survivor, with the roles it brought, and without the app of a mirror record deleted since', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    await newMirror(merged, registries[0]!);
    const bindingId = await bind(merged, 'investor', organizations[0]!);
    const { body: gone } = await request(identity.server)
      .post('/v1/apps')
      .set(platform())
      .send({ name: 'Gone', type: 'Traditional', redirectUris: ['https://gone.example/cb'] })
      .expect(201);
    await newMirror(survivor, gone.app.registryId);
    await request(identity.server).delete(`/v1/apps/${gone.app.registryId}`).set(platform()).expect(204);
    await merge(survivor, merged).expect(201);
    const { body } = await request(identity.server).get(`/v1/unified-users/${merged}`).set(platform()).expect(200);
    expect(body).toMatchObject({
      uid: survivor,
      aliases: [merged],
      apps: [{ registryId: registries[0], via: 'mirror' }],
      roles: [{ id: bindingId, uid: survivor, role: 'investor', organizationId: organizations[0] }],
    });
  });

  it('answers 404 for an unknown uid and 400 for something that is not a uid', async () => {
    const unknown = await request(identity.server).get(`/v1/unified-users/${uuidv7()}`).set(platform()).expect(404);
    expect(unknown.body.code).toBe('not_found');
    await request(identity.server).get('/v1/unified-users/not-a-uid').set(platform()).expect(400);
  });
});

describe('merge and unmerge', () => {
  it('moves everything to the survivor and unmerging restores exactly the prior rows, duplicates and aliases included', async () => {
    const [r1, r2, r3] = registries as [string, string, string];
    const [o1, o2] = organizations as [string, string];
    const survivor = await newUser();
    const merged = await newUser({ email: 'merged@example.org', emailVerified: true });
    const alias = await newUser();
    await newMirror(survivor, r1);
    await link(survivor, r1);
    await link(survivor, r2, '2024-03-02 10:00:00.000001+00');
    await bind(survivor, 'investor', null);
    await bind(survivor, 'project-owner', o1);
    const mergedMirrors = [await newMirror(merged, r2), await newMirror(merged, r3)];
    await link(merged, r2, '2024-03-05 12:34:56.789012+00');
    await link(merged, r3);
    const duplicateGlobal = await bind(merged, 'investor', null, '2024-04-02 00:00:00.000007+00');
    const duplicateScoped = await bind(merged, 'project-owner', o1, '2024-04-03 00:00:00.999999+00');
    const movedScoped = await bind(merged, 'project-owner', o2);
    const movedGlobal = await bind(merged, 'external-auditor', null);
    const aliasMirror = await newMirror(alias, r1);
    await bind(alias, 'scenario-modeller', null);
    const users = [survivor, merged, alias];

    const original = await dump(users);
    const first = await merge(merged, alias).expect(201);
    const beforeSecond = await dump(users);

    const second = await merge(survivor, merged).expect(201);
    expect(second.body).toEqual({
      id: expect.any(String),
      survivorUid: survivor,
      mergedUid: merged,
      mergedAt: expect.any(String),
      unmergedAt: null,
    });
    const after = await dump(users);
    expect((after.user_mirror as { uid: string }[]).every((row) => row.uid === survivor)).toBe(true);
    expect(after.app_link).toHaveLength(3);
    expect((after.role_binding as { id: string }[]).map((row) => row.id)).not.toEqual(expect.arrayContaining([duplicateGlobal]));
    expect((after.unified_user as { uid: string; merged_into: string | null }[]).map((row) => [row.uid, row.merged_into])).toEqual(
      [
        [survivor, null],
        [merged, survivor],
        [alias, survivor],
      ].sort(),
    );
    const [record] = await identity.dataSource.query('SELECT moved FROM user_merge WHERE id = $1', [second.body.id]);
    expect(record.moved).toMatchObject({
      mirrors: [...mergedMirrors, aliasMirror].sort(),
      appLinks: [r3],
      roleBindings: expect.arrayContaining([
        { id: movedScoped, role: 'project-owner', organizationId: o2 },
        { id: movedGlobal, role: 'external-auditor', organizationId: null },
      ]),
      removedAppLinks: [{ uid: merged, registry_id: r2, linked_at: expect.stringContaining('12:34:56.789012') }],
      removedRoleBindings: [
        {
          id: duplicateGlobal,
          uid: merged,
          role: 'investor',
          organization_id: null,
          granted_at: expect.stringContaining('00:00:00.000007'),
        },
        {
          id: duplicateScoped,
          uid: merged,
          role: 'project-owner',
          organization_id: o1,
          granted_at: expect.stringContaining('00:00:00.999999'),
        },
      ].sort((a, b) => a.id.localeCompare(b.id)),
      aliases: [alias],
    });

    const undone = await unmerge(second.body.id).expect(200);
    expect(undone.body).toMatchObject({ id: second.body.id, unmergedAt: expect.any(String) });
    expect(await dump(users)).toEqual(beforeSecond);
    await unmerge(first.body.id).expect(200);
    expect(await dump(users)).toEqual(original);
  });

  it('resolves a merged uid, and the aliases of a merged user, to the final survivor', async () => {
    const [first, second, third] = [await newUser(), await newUser(), await newUser()];
    await merge(second, third).expect(201);
    await merge(first, second).expect(201);
    for (const uid of [second, third]) {
      const { body } = await request(identity.server).get(`/v1/unified-users/${uid}`).set(platform()).expect(200);
      expect({ uid: body.uid, aliases: body.aliases }).toEqual({ uid: first, aliases: [second, third].sort() });
    }
  });

  it('refuses a user merged with itself (400) and unknown users (404), changing nothing', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    const before = { rows: await dump([survivor, merged]), merges: await countMerges() };
    const itself = await merge(survivor, survivor).expect(400);
    expect(itself.body.errors).toEqual([{ field: 'mergedUid', message: 'mergedUid must differ from survivorUid' }]);
    const sameInCapitals = await merge(survivor, survivor.toUpperCase()).expect(400);
    expect(sameInCapitals.body.errors).toEqual(itself.body.errors);
    await merge(survivor, uuidv7()).expect(404);
    await merge(uuidv7(), merged).expect(404);
    for (const [survivorUid, mergedUid, field] of [
      [survivor, 'not-a-uid', 'mergedUid'],
      ['not-a-uid', merged, 'survivorUid'],
    ] as const) {
      const malformed = await merge(survivorUid, mergedUid).expect(400);
      expect(malformed.body.errors).toEqual([{ field, message: `${field} must be a UUID` }]);
    }
    expect({ rows: await dump([survivor, merged]), merges: await countMerges() }).toEqual(before);
  });

  it('refuses with 409 to merge a user merged already, or into a merged survivor, and changes nothing', async () => {
    const [survivor, merged, other] = [await newUser(), await newUser(), await newUser()];
    await newMirror(other, registries[0]!);
    await bind(other, 'investor', null);
    await merge(survivor, merged).expect(201);
    const before = { rows: await dump([survivor, merged, other]), merges: await countMerges() };
    const again = await merge(other, merged).expect(409);
    expect(again.body.detail).toContain(`merged into ${survivor}`);
    await merge(merged, other).expect(409);
    await merge(survivor, merged).expect(409);
    expect({ rows: await dump([survivor, merged, other]), merges: await countMerges() }).toEqual(before);
  });

  it('leaves nothing behind when a merge fails part-way', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    await newMirror(merged, registries[0]!);
    await link(merged, registries[1]!);
    await bind(merged, 'investor', null);
    const before = { rows: await dump([survivor, merged]), merges: await countMerges() };
    // A real failure at the last write of the merge: the user_merge insert.
    await identity.dataSource.query(
      `CREATE FUNCTION fail_merge() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'merge fails'; END $$`,
    );
    await identity.dataSource.query('CREATE TRIGGER fail_merge BEFORE INSERT ON user_merge FOR EACH ROW EXECUTE FUNCTION fail_merge()');
    try {
      await merge(survivor, merged).expect(500);
    } finally {
      await identity.dataSource.query('DROP TRIGGER fail_merge ON user_merge');
      await identity.dataSource.query('DROP FUNCTION fail_merge()');
    }
    expect({ rows: await dump([survivor, merged]), merges: await countMerges() }).toEqual(before);
    const audited = await identity.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_entry WHERE action = 'users.merge' AND detail->>'mergedUid' = $1`,
      [merged],
    );
    expect(audited[0].n).toBe(0);
  });

  it('refuses to undo a merge twice (409) or an unknown merge (404)', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    const done = await merge(survivor, merged).expect(201);
    await unmerge(done.body.id).expect(200);
    const twice = await unmerge(done.body.id).expect(409);
    expect(twice.body.detail).toContain('undone already');
    await unmerge(uuidv7()).expect(404);
  });

  it('lets exactly one of parallel undos of one merge through, restoring the rows once', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    await bind(survivor, 'investor', null);
    await bind(merged, 'investor', null);
    await bind(merged, 'compliance-officer', null);
    const before = await dump([survivor, merged]);
    const done = await merge(survivor, merged).expect(201);
    const responses = await Promise.all(Array.from({ length: 4 }, () => unmerge(done.body.id)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await dump([survivor, merged])).toEqual(before);
  });

  it('undoes a merge whatever later merges into other survivors dropped', async () => {
    const [survivor, merged, otherSurvivor, otherMerged] = [await newUser(), await newUser(), await newUser(), await newUser()];
    await bind(merged, 'compliance-officer', null);
    await bind(otherSurvivor, 'compliance-officer', null);
    await bind(otherMerged, 'compliance-officer', null);
    const earlier = await merge(survivor, merged).expect(201);
    await merge(otherSurvivor, otherMerged).expect(201);
    await unmerge(earlier.body.id).expect(200);
    expect(await identity.dataSource.query('SELECT uid FROM role_binding WHERE uid = ANY($1)', [[survivor, merged]])).toEqual([
      { uid: merged },
    ]);
  });

  it('refuses to undo a merge whose survivor was merged on since, naming the merge to undo first', async () => {
    const [top, middle, bottom] = [await newUser(), await newUser(), await newUser()];
    await bind(bottom, 'investor', null);
    const inner = await merge(middle, bottom).expect(201);
    const outer = await merge(top, middle).expect(201);
    const before = await dump([top, middle, bottom]);
    const refused = await unmerge(inner.body.id).expect(409);
    expect(refused.body.detail).toContain(outer.body.id);
    expect(await dump([top, middle, bottom])).toEqual(before);
    await unmerge(outer.body.id).expect(200);
    await unmerge(inner.body.id).expect(200);
  });

  it('refuses to undo a merge when a later merge into the same survivor dropped a duplicate of a row it moved', async () => {
    const [survivor, first, second] = [await newUser(), await newUser(), await newUser()];
    await bind(first, 'compliance-officer', null);
    await bind(second, 'compliance-officer', null);
    const earlier = await merge(survivor, first).expect(201);
    const later = await merge(survivor, second).expect(201);
    const refused = await unmerge(earlier.body.id).expect(409);
    expect(refused.body.detail).toContain(later.body.id);
    await unmerge(later.body.id).expect(200);
    await unmerge(earlier.body.id).expect(200);
    const roles = await identity.dataSource.query('SELECT uid FROM role_binding WHERE uid = ANY($1) ORDER BY uid', [
      [survivor, first, second],
    ]);
    expect(roles.map((row: { uid: string }) => row.uid)).toEqual([first, second].sort());
  });

  it('refuses to unmerge when another user of its organization now holds the verified email of the merged user, changing nothing', async () => {
    const email = `taken-${randomBytes(3).toString('hex')}@example.org`;
    const emailScope = `test:${randomBytes(4).toString('hex')}`;
    const [survivor, merged] = [await newUser(), await newUser({ email, emailVerified: true, emailScope })];
    const done = await merge(survivor, merged).expect(201);
    const elsewhere = await newUser({ email, emailVerified: true });
    const holder = await newUser({ email, emailVerified: true, emailScope });
    const before = await dump([survivor, merged, holder, elsewhere]);
    const refused = await unmerge(done.body.id).expect(409);
    expect(refused.body.detail).toContain(holder);
    expect(await dump([survivor, merged, holder, elsewhere])).toEqual(before);
  });

  it('keeps every alias one step from a live user under parallel merges', async () => {
    const users = [await newUser(), await newUser(), await newUser(), await newUser()];
    const pairs = users.flatMap((a) => users.filter((b) => b !== a).map((b) => [a, b] as const)).slice(0, 8);
    const responses = await Promise.all(pairs.map(([survivor, merged]) => merge(survivor, merged)));
    expect(responses.map((response) => response.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const broken = await identity.dataSource.query(
      'SELECT a.uid FROM unified_user a JOIN unified_user t ON a.merged_into = t.uid WHERE t.merged_into IS NOT NULL AND a.uid = ANY($1)',
      [users],
    );
    expect(broken).toEqual([]);
    const live = await identity.dataSource.query('SELECT uid FROM unified_user WHERE uid = ANY($1) AND merged_into IS NULL', [users]);
    expect(live.length).toBeGreaterThanOrEqual(1);
  });
});

describe('app links', () => {
  it('links and unlinks a registered app, through a merged uid too', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    await merge(survivor, merged).expect(201);
    const linked = await request(identity.server)
      .post(`/v1/unified-users/${merged}/app-links`)
      .set(platform())
      .send({ registryId: registries[2] })
      .expect(201);
    expect(linked.body).toEqual({ registryId: registries[2], via: 'link' });
    const stored = await identity.dataSource.query('SELECT uid FROM app_link WHERE registry_id = $1 AND uid = ANY($2)', [
      registries[2],
      [survivor, merged],
    ]);
    expect(stored).toEqual([{ uid: survivor }]);
    await request(identity.server)
      .post(`/v1/unified-users/${survivor}/app-links`)
      .set(platform())
      .send({ registryId: registries[2] })
      .expect(409);
    const read = await request(identity.server).get(`/v1/unified-users/${survivor}`).set(platform()).expect(200);
    expect(read.body.apps).toEqual([{ registryId: registries[2], via: 'link' }]);
    await request(identity.server).delete(`/v1/unified-users/${survivor}/app-links/${registries[2]}`).set(platform()).expect(204);
    await request(identity.server).delete(`/v1/unified-users/${survivor}/app-links/${registries[2]}`).set(platform()).expect(404);
    expect(await identity.dataSource.query('SELECT uid FROM app_link WHERE uid = $1', [survivor])).toEqual([]);
  });

  it("unlinks only the app named, keeping the user's other links, and no longer shows an app deleted since it was linked", async () => {
    const uid = await newUser();
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set(platform())
      .send({ name: 'Soon gone', type: 'Traditional', redirectUris: ['https://gone.example/cb'] })
      .expect(201);
    for (const registryId of [registries[0]!, registries[1]!, body.app.registryId as string]) {
      await request(identity.server).post(`/v1/unified-users/${uid}/app-links`).set(platform()).send({ registryId }).expect(201);
    }
    await request(identity.server).delete(`/v1/apps/${body.app.registryId}`).set(platform()).expect(204);
    const read = await request(identity.server).get(`/v1/unified-users/${uid}`).set(platform()).expect(200);
    expect(read.body.apps).toEqual([registries[0]!, registries[1]!].sort().map((registryId) => ({ registryId, via: 'link' })));
    await request(identity.server).delete(`/v1/unified-users/${uid}/app-links/${registries[0]}`).set(platform()).expect(204);
    const links = await identity.dataSource.query('SELECT registry_id FROM app_link WHERE uid = $1 ORDER BY registry_id', [uid]);
    expect(links).toEqual([registries[1]!, body.app.registryId].sort().map((registry_id) => ({ registry_id })));
  });

  it('refuses an unknown or deleted app with 404, a malformed registry id with 400, and an unknown user with 404', async () => {
    const uid = await newUser();
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set(platform())
      .send({ name: 'Short-lived', type: 'Traditional', redirectUris: ['https://short.example/cb'] })
      .expect(201);
    await request(identity.server).delete(`/v1/apps/${body.app.registryId}`).set(platform()).expect(204);
    const linkTo = (target: string, registryId: string) =>
      request(identity.server).post(`/v1/unified-users/${target}/app-links`).set(platform()).send({ registryId });
    await linkTo(uid, body.app.registryId).expect(404);
    await linkTo(uid, 'reg_00000000000000000000').expect(404);
    await linkTo(uid, 'not-a-registry').expect(400);
    await linkTo(uuidv7(), registries[0]!).expect(404);
    expect(await identity.dataSource.query('SELECT uid FROM app_link WHERE uid = $1', [uid])).toEqual([]);
  });
});

describe('platform-only administration', () => {
  it('refuses every route to an app key with 403', async () => {
    const partner = await identity.newAppKey();
    const [uid, other] = [await newUser(), await newUser()];
    const done = await merge(uid, other).expect(201);
    const routes: [string, string, object][] = [
      ['get', `/v1/unified-users/${uid}`, {}],
      ['post', '/v1/unified-users/merge', { survivorUid: uid, mergedUid: other }],
      ['post', `/v1/merges/${done.body.id}/unmerge`, {}],
      ['post', `/v1/unified-users/${uid}/app-links`, { registryId: registries[0] }],
      ['delete', `/v1/unified-users/${uid}/app-links/${registries[0]}`, {}],
    ];
    for (const [method, route, body] of routes) {
      const response = await (request(identity.server) as unknown as Record<string, (url: string) => request.Test>)[method]!(route)
        .set(bearer(partner.secret))
        .send(body);
      expect({ route, status: response.status, code: response.body.code }).toEqual({ route, status: 403, code: 'forbidden' });
    }
    const merges = await identity.dataSource.query('SELECT unmerged_at FROM user_merge WHERE id = $1', [done.body.id]);
    expect(merges).toEqual([{ unmerged_at: null }]);
  });

  it('tells of a merge and of its unmerge each organization that mirrors either person, and no other', async () => {
    const [ofSurvivor, ofMerged, bystander] = [await identity.newAppKey(), await identity.newAppKey(), await identity.newAppKey()];
    const [survivor, merged] = [await newUser(), await newUser()];
    await newMirror(survivor, (await identity.newRegistry(ofSurvivor.secret)).registryId);
    await newMirror(merged, (await identity.newRegistry(ofMerged.secret)).registryId);
    await identity.newRegistry(bystander.secret);
    const done = await merge(survivor, merged).expect(201);
    await unmerge(done.body.id).expect(200);
    const told = await identity.dataSource.query(
      `SELECT type, organization_id AS "organizationId" FROM event_outbox WHERE data->>'mergeId' = $1 ORDER BY type, organization_id`,
      [done.body.id],
    );
    const organizations = [ofSurvivor.organizationId, ofMerged.organizationId].sort();
    expect(told).toEqual(
      ['user.merged', 'user.unmerged'].flatMap((type) => organizations.map((organizationId) => ({ type, organizationId }))),
    );
  });

  it('records merge, unmerge, link and unlink in the audit log with the platform key prefix as actor', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    const done = await merge(survivor, merged).expect(201);
    await unmerge(done.body.id).expect(200);
    await request(identity.server)
      .post(`/v1/unified-users/${survivor}/app-links`)
      .set(platform())
      .send({ registryId: registries[1] })
      .expect(201);
    await request(identity.server).delete(`/v1/unified-users/${survivor}/app-links/${registries[1]}`).set(platform()).expect(204);
    const entries = await identity.dataSource.query(
      `SELECT actor_kind, actor_id, action, target, outcome FROM audit_entry
        WHERE action IN ('users.merge', 'users.unmerge', 'users.link-app', 'users.unlink-app') AND target = ANY($1) ORDER BY id`,
      [[done.body.id, survivor]],
    );
    const actor = { actor_kind: 'platform_key', actor_id: identity.platformKey.split('_')[2], outcome: 'success' };
    expect(entries).toEqual([
      { ...actor, action: 'users.merge', target: done.body.id },
      { ...actor, action: 'users.unmerge', target: done.body.id },
      { ...actor, action: 'users.link-app', target: survivor },
      { ...actor, action: 'users.unlink-app', target: survivor },
    ]);
  });

  it('lists the routes in the OpenAPI document', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/unified-users/{uid}',
        '/v1/unified-users/merge',
        '/v1/merges/{mergeId}/unmerge',
        '/v1/unified-users/{uid}/app-links',
        '/v1/unified-users/{uid}/app-links/{registryId}',
      ]),
    );
    expect(body.paths['/v1/unified-users/merge'].post.security).toEqual([{ 'api-key': [] }]);
  });
});
