import request from 'supertest';
import { KeyAuthentication } from '../src/access/callers/key-authentication';
import { RegisteredAppsService } from '../src/partners/registered-apps/registered-apps.service';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const validApp = (name = 'Acme Portal') => ({ name, type: 'Traditional', redirectUris: ['https://portal.acme.example/callback'] });

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.close());

describe('POST /v1/apps', () => {
  it('registers an app, binds its registry to the calling key, and shows the client secret once', async () => {
    const partner = await identity.newAppKey();
    const { body } = await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(validApp()).expect(201);
    expect(body.app).toMatchObject({
      registryId: expect.stringMatching(/^reg_[0-9a-z]{20}$/),
      name: 'Acme Portal',
      type: 'Traditional',
      redirectUris: ['https://portal.acme.example/callback'],
      clientId: expect.stringMatching(/^client_/),
      organizationId: partner.organizationId,
    });
    expect(body.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const caller = await identity.app.get(KeyAuthentication).authenticate(partner.secret);
    expect(caller?.registryIds).toEqual([body.app.registryId]);
    const read = await request(identity.server).get(`/v1/apps/${body.app.registryId}`).set(bearer(partner.secret)).expect(200);
    expect(read.body.clientSecret).toBeUndefined();
    const stored = await identity.dataSource.query('SELECT client_secret_hash FROM registered_app WHERE registry_id = $1', [
      body.app.registryId,
    ]);
    expect(stored[0].client_secret_hash.toString('utf8')).not.toContain(body.clientSecret);
  });

  it.each([
    ['a blank name', '   ', 'name must not be blank'],
    ['a name over 100 characters', 'n'.repeat(101), 'name must be shorter than or equal to 100 characters'],
  ])('refuses %s with a 400 naming the field, and registers nothing', async (_, name, message) => {
    const partner = await identity.newAppKey();
    const response = await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(validApp(name)).expect(400);
    expect(response.body.errors).toEqual([{ field: 'name', message }]);
    const count = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(count[0].n).toBe(0);
  });

  it('refuses another type with a 400 listing the allowed ones', async () => {
    const partner = await identity.newAppKey();
    const response = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), type: 'SPA' })
      .expect(400);
    expect(response.body.errors).toEqual([{ field: 'type', message: 'type must be one of: Traditional' }]);
  });

  it.each([
    [[], 'redirectUris must list at least one URI'],
    [['http://portal.acme.example/cb'], 'must use https (http is allowed only on localhost)'],
    [['https://portal.acme.example/cb#frag'], 'must not contain a fragment'],
    [['/relative/callback'], 'must be an absolute URI'],
    [['https://portal.acme.example/cb#'], 'must not contain a fragment'],
    [['http://localhost.attacker.example/cb'], 'must use https (http is allowed only on localhost)'],
    [['http://127.0.0.1.attacker.example/cb'], 'must use https (http is allowed only on localhost)'],
    [['javascript:alert(1)'], 'must use https (http is allowed only on localhost)'],
    [['com.acme.portal:/callback'], 'must use https (http is allowed only on localhost)'],
    [['ftp://portal.acme.example/cb'], 'must use https (http is allowed only on localhost)'],
    [[`https://portal.acme.example/${'c'.repeat(2000)}`], 'must be an absolute URI of at most 2000 characters'],
    [Array.from({ length: 21 }, (_, i) => `https://portal.acme.example/cb${i}`), 'must contain no more than 20 elements'],
  ])('refuses redirect URIs %j', async (redirectUris, message) => {
    const partner = await identity.newAppKey();
    const response = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), redirectUris })
      .expect(400);
    expect(response.body.errors[0].field).toBe('redirectUris');
    expect(response.body.errors[0].message).toContain(message);
    const count = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(count[0].n).toBe(0);
  });

  it('refuses a redirect URI longer than 2000 characters, and more than 20 of them, creating nothing', async () => {
    const partner = await identity.newAppKey();
    const long = `https://portal.acme.example/${'c'.repeat(2000 - 'https://portal.acme.example/'.length + 1)}`;
    const tooLong = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), redirectUris: [long] })
      .expect(400);
    expect(tooLong.body.errors[0]).toMatchObject({ field: 'redirectUris', message: expect.stringContaining('at most 2000 characters') });
    const many = Array.from({ length: 21 }, (_, i) => `https://portal.acme.example/cb${i}`);
    const tooMany = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), redirectUris: many })
      .expect(400);
    expect(tooMany.body.errors[0].field).toBe('redirectUris');
    await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), redirectUris: many.slice(0, 20) })
      .expect(201);
    const count = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(count[0].n).toBe(1);
  });

  it('stores the name without the spaces around it', async () => {
    const partner = await identity.newAppKey();
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send(validApp('  Acme Portal  '))
      .expect(201);
    expect(body.app.name).toBe('Acme Portal');
  });

  it('accepts http on localhost', async () => {
    const partner = await identity.newAppKey();
    await request(identity.server)
      .post('/v1/apps')
      .set(bearer(partner.secret))
      .send({ ...validApp(), redirectUris: ['http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb'] })
      .expect(201);
  });

  it('lets exactly maxApps of many parallel registrations through, and creates nothing more', async () => {
    const partner = await identity.newAppKey({ maxApps: 3 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(identity.server)
          .post('/v1/apps')
          .set(bearer(partner.secret))
          .send(validApp(`App ${i}`)),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(responses.find((r) => r.status === 409)!.body.code).toBe('conflict');
    const stored = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(stored[0].n).toBe(3);
    const bindings = await identity.dataSource.query('SELECT count(*)::int AS n FROM key_registry_binding WHERE key_id = $1', [
      partner.key.id,
    ]);
    expect(bindings[0].n).toBe(3);
  });

  it('refuses a registration by a key revoked after it was authenticated, and creates nothing', async () => {
    const partner = await identity.newAppKey();
    const caller = (await identity.app.get(KeyAuthentication).authenticate(partner.secret))!;
    await request(identity.server).post(`/v1/keys/${partner.key.id}/revoke`).set(bearer(identity.platformKey)).expect(200);
    await expect(identity.app.get(RegisteredAppsService).register({ ...validApp(), type: 'Traditional' }, caller)).rejects.toMatchObject({
      domainCode: 'apps.key_revoked',
    });
    const stored = await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [
      partner.key.id,
    ]);
    expect(stored[0].n).toBe(0);
  });
});

describe('apps of other keys', () => {
  it('are invisible: 404 for reads and deletes, absent from lists', async () => {
    const owner = await identity.newAppKey();
    const stranger = await identity.newAppKey();
    const { body } = await request(identity.server).post('/v1/apps').set(bearer(owner.secret)).send(validApp()).expect(201);
    await request(identity.server).get(`/v1/apps/${body.app.registryId}`).set(bearer(stranger.secret)).expect(404);
    await request(identity.server).delete(`/v1/apps/${body.app.registryId}`).set(bearer(stranger.secret)).expect(404);
    const listed = await request(identity.server).get('/v1/apps').set(bearer(stranger.secret)).expect(200);
    expect(listed.body).toEqual({ items: [], nextCursor: null });
    // A key with an app of its own sees no more of the others'.
    const own = await identity.newRegistry(stranger.secret);
    await request(identity.server).get(`/v1/apps/${own.registryId}`).set(bearer(stranger.secret)).expect(200);
    await request(identity.server).get(`/v1/apps/${body.app.registryId}`).set(bearer(stranger.secret)).expect(404);
    await request(identity.server).delete(`/v1/apps/${body.app.registryId}`).set(bearer(stranger.secret)).expect(404);
    const ownList = await request(identity.server).get('/v1/apps').set(bearer(stranger.secret)).expect(200);
    expect(ownList.body.items.map((app: { registryId: string }) => app.registryId)).toEqual([own.registryId]);
    const platform = await request(identity.server).get(`/v1/apps/${body.app.registryId}`).set(bearer(identity.platformKey)).expect(200);
    expect(platform.body.registryId).toBe(body.app.registryId);
  });

  it('are all listed to a platform key, whichever key registered them', async () => {
    const owner = await identity.newAppKey();
    const { body } = await request(identity.server).post('/v1/apps').set(bearer(owner.secret)).send(validApp()).expect(201);
    const stored: { registry_id: string }[] = await identity.dataSource.query(
      'SELECT registry_id FROM registered_app WHERE deleted_at IS NULL ORDER BY registry_id',
    );
    const listed = await request(identity.server).get('/v1/apps').query({ limit: 100 }).set(bearer(identity.platformKey)).expect(200);
    expect(stored.length).toBeLessThan(100);
    expect(listed.body.items.map((app: { registryId: string }) => app.registryId)).toEqual(stored.map((row) => row.registry_id));
    expect(stored.map((row) => row.registry_id)).toContain(body.app.registryId);
  });

  it("are never in a key's list, which pages through its own apps: each once, in registry id order, the last page without a cursor", async () => {
    const partner = await identity.newAppKey({ maxApps: 5 });
    await identity.newRegistry();
    const registered: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { body } = await request(identity.server)
        .post('/v1/apps')
        .set(bearer(partner.secret))
        .send(validApp(`App ${i}`))
        .expect(201);
      registered.push(body.app.registryId);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages <= registered.length; pages++) {
      const page = await request(identity.server)
        .get('/v1/apps')
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .set(bearer(partner.secret))
        .expect(200);
      seen.push(...page.body.items.map((app: { registryId: string }) => app.registryId));
      cursor = page.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual([...registered].sort());
  });

  it('is deleted once when deletions race: one 204, the others 404, one audit entry', async () => {
    const partner = await identity.newAppKey();
    const { registryId } = await identity.newRegistry(partner.secret);
    const responses = await Promise.all(
      Array.from({ length: 3 }, () => request(identity.server).delete(`/v1/apps/${registryId}`).set(bearer(partner.secret))),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([204, 404, 404]);
    const audited = await identity.dataSource.query('SELECT count(*)::int AS n FROM audit_entry WHERE action = $1 AND target = $2', [
      'apps.delete',
      registryId,
    ]);
    expect(audited[0].n).toBe(1);
  });

  it('a deleted app frees a slot and disappears', async () => {
    const partner = await identity.newAppKey({ maxApps: 1 });
    const first = await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(validApp()).expect(201);
    await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(validApp()).expect(409);
    await request(identity.server).delete(`/v1/apps/${first.body.app.registryId}`).set(bearer(partner.secret)).expect(204);
    await request(identity.server).get(`/v1/apps/${first.body.app.registryId}`).set(bearer(partner.secret)).expect(404);
    await request(identity.server).post('/v1/apps').set(bearer(partner.secret)).send(validApp()).expect(201);
    const listed = await request(identity.server).get('/v1/apps').query({ limit: 100 }).set(bearer(identity.platformKey)).expect(200);
    expect(listed.body.items.map((app: { registryId: string }) => app.registryId)).not.toContain(first.body.app.registryId);
    const audited = await identity.dataSource.query('SELECT actor_kind, actor_id FROM audit_entry WHERE action = $1 AND target = $2', [
      'apps.delete',
      first.body.app.registryId,
    ]);
    expect(audited).toEqual([{ actor_kind: 'app_key', actor_id: partner.key.prefix }]);
  });
});
