import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { KeyAuthentication } from '../src/access/callers/key-authentication';
import { KeysService } from '../src/access/keys/keys.service';
import { bootstrapPlatformKey } from '../src/access/bootstrap/first-platform-key';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  identity = await startIdentity({ KEY_ROTATION_GRACE_SECONDS: '3600' });
});
afterAll(() => identity.close());

describe('API keys', () => {
  it('shows a key once and stores only its hash', async () => {
    const issued = await identity.newAppKey();
    expect(issued.secret).toMatch(/^stdreg_app_[a-z2-7]{10}_[A-Za-z0-9_-]{43}$/);
    expect(issued.key).toMatchObject({ class: 'app', prefix: issued.secret.split('_')[2], maxApps: 3, revokedAt: null });
    const stored = await identity.dataSource.query('SELECT encode(secret_hash, $2) AS hash FROM api_key_secret WHERE key_id = $1', [
      issued.key.id,
      'hex',
    ]);
    expect(JSON.stringify(stored)).not.toContain(issued.secret.split('_').pop());
    const listed = await request(identity.server).get('/v1/keys?limit=100').set(bearer(identity.platformKey)).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(issued.secret);
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(issued.key.id);
  });

  it('answers a missing, malformed or unknown key with 401 and WWW-Authenticate', async () => {
    const missing = await request(identity.server).get('/v1/keys').expect(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="identity"');
    expect(missing.body.code).toBe('unauthenticated');
    const malformed = await request(identity.server).get('/v1/keys').set('Authorization', 'Basic abc').expect(401);
    expect(malformed.headers['www-authenticate']).toMatch(/^Bearer realm="identity", error="invalid_token"/);
    const forged = identity.platformKey.slice(0, -4) + 'AAAA';
    await request(identity.server).get('/v1/keys').set(bearer(forged)).expect(401);
  });

  it('refuses every platform-only route to an app key with 403', async () => {
    const app = await identity.newAppKey();
    const routes: [string, string][] = [
      ['post', '/v1/keys'],
      ['get', '/v1/keys'],
      ['get', `/v1/keys/${app.key.id}`],
      ['post', `/v1/keys/${app.key.id}/rotate`],
      ['post', `/v1/keys/${app.key.id}/revoke`],
      ['post', '/v1/organizations'],
      ['get', '/v1/organizations'],
      ['get', '/v1/audit'],
    ];
    for (const [method, route] of routes) {
      const response = await (request(identity.server) as unknown as Record<string, (url: string) => request.Test>)[method]!(route)
        .set(bearer(app.secret))
        .send({});
      expect({ route, status: response.status, code: response.body.code }).toEqual({ route, status: 403, code: 'forbidden' });
    }
  });

  it('rotates a key: the new secret works and the old one keeps working during the grace period', async () => {
    const app = await identity.newAppKey();
    const rotated = await request(identity.server)
      .post(`/v1/keys/${app.key.id}/rotate`)
      .set(bearer(identity.platformKey))
      .send({})
      .expect(200);
    expect(rotated.body.secret).not.toBe(app.secret);
    expect(rotated.body.key.previousSecretExpiresAt).toEqual(expect.any(String));
    const keys = identity.app.get(KeyAuthentication);
    expect(await keys.authenticate(rotated.body.secret)).toMatchObject({ keyId: app.key.id });
    expect(await keys.authenticate(app.secret)).toMatchObject({ keyId: app.key.id });

    const immediate = await request(identity.server)
      .post(`/v1/keys/${app.key.id}/rotate`)
      .set(bearer(identity.platformKey))
      .send({ gracePeriodSeconds: 0 })
      .expect(200);
    expect(await keys.authenticate(rotated.body.secret)).toBeNull();
    expect(await keys.authenticate(app.secret)).toBeNull();
    expect(await keys.authenticate(immediate.body.secret)).toMatchObject({ keyId: app.key.id });
  });

  it('revokes a key and all its secrets at once', async () => {
    const app = await identity.newAppKey();
    const rotated = await request(identity.server)
      .post(`/v1/keys/${app.key.id}/rotate`)
      .set(bearer(identity.platformKey))
      .send({})
      .expect(200);
    await request(identity.server).post(`/v1/keys/${app.key.id}/revoke`).set(bearer(identity.platformKey)).expect(200);
    expect(await identity.app.get(KeyAuthentication).authenticate(app.secret)).toBeNull();
    expect(await identity.app.get(KeyAuthentication).authenticate(rotated.body.secret)).toBeNull();
    await request(identity.server).post(`/v1/keys/${app.key.id}/rotate`).set(bearer(identity.platformKey)).send({}).expect(409);
  });

  it('answers a forged or foreign list cursor with 400 naming the cursor, never a server error', async () => {
    const forged = Buffer.from(JSON.stringify(['keys', "x' OR 1=1"])).toString('base64url');
    const foreign = Buffer.from(JSON.stringify(['organizations', '01900000-0000-7000-8000-000000000000'])).toString('base64url');
    for (const cursor of [forged, foreign, 'not*base64']) {
      const response = await request(identity.server).get(`/v1/keys?cursor=${cursor}`).set(bearer(identity.platformKey)).expect(400);
      expect(response.body.errors).toEqual([{ field: 'cursor', message: 'cursor must be a nextCursor value from this list' }]);
    }
  });

  it('validates key creation: class, organization, unknown fields', async () => {
    const badClass = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'x', class: 'super' })
      .expect(400);
    expect(badClass.body.errors[0]).toEqual({ field: 'class', message: 'class must be one of: app, platform' });
    const noOrg = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'x', class: 'app' })
      .expect(400);
    expect(noOrg.body.errors[0].field).toBe('organizationId');
    const unknownOrg = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'x', class: 'app', organizationId: '01900000-0000-7000-8000-000000000000' })
      .expect(422);
    expect(unknownOrg.body.errors[0].field).toBe('organizationId');
    const extra = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'x', class: 'platform', admin: true })
      .expect(400);
    expect(extra.body.errors[0]).toEqual({ field: 'admin', message: 'admin is not an accepted field' });
  });

  it.each([
    ['a blank name', { name: '   ' }, 'name'],
    ['a malformed organization id', { organizationId: 'not-a-uuid' }, 'organizationId'],
    [
      '101 allowed registries',
      { allowedRegistryIds: Array.from({ length: 101 }, (_, i) => `reg_${String(i).padStart(20, '0')}`) },
      'allowedRegistryIds',
    ],
    ['a malformed allowed registry', { allowedRegistryIds: ['portal'] }, 'allowedRegistryIds'],
    ['an allowed registry with a tail', { allowedRegistryIds: ['reg_0k3n5b2x9q1m4v7c8z6wx'] }, 'allowedRegistryIds'],
    ['maxApps 0', { maxApps: 0 }, 'maxApps'],
    ['maxApps 101', { maxApps: 101 }, 'maxApps'],
  ])('refuses a key with %s, naming the field, and creates nothing', async (_, change, field) => {
    const app = await identity.newAppKey();
    const count = async () => (await identity.dataSource.query('SELECT count(*)::int AS n FROM api_key'))[0].n;
    const before = await count();
    const response = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'Acme partner key', class: 'app', organizationId: app.organizationId, ...change })
      .expect(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await count()).toBe(before);
  });

  it('refuses a grace period outside 0 to 30 days and an unknown class filter, naming the field', async () => {
    const app = await identity.newAppKey();
    for (const gracePeriodSeconds of [2592001, -1]) {
      const refused = await request(identity.server)
        .post(`/v1/keys/${app.key.id}/rotate`)
        .set(bearer(identity.platformKey))
        .send({ gracePeriodSeconds })
        .expect(400);
      expect(refused.body.errors[0].field).toBe('gracePeriodSeconds');
    }
    expect(
      (await request(identity.server).get(`/v1/keys/${app.key.id}`).set(bearer(identity.platformKey)).expect(200)).body.rotatedAt,
    ).toBeNull();
    const filter = await request(identity.server).get('/v1/keys?class=super').set(bearer(identity.platformKey)).expect(400);
    expect(filter.body.errors[0].field).toBe('class');
  });

  it('records key writes and every use of a platform key in the audit log', async () => {
    const app = await identity.newAppKey();
    const prefix = identity.platformKey.split('_')[2];
    const audit = await request(identity.server).get(`/v1/audit?actor=${prefix}&limit=100`).set(bearer(identity.platformKey)).expect(200);
    const actions = audit.body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['key.use', 'organizations.create', 'keys.create']));
    expect(
      audit.body.items.find((e: { action: string; target: string }) => e.action === 'keys.create' && e.target === app.key.id),
    ).toBeDefined();
    await expect(identity.dataSource.query('UPDATE audit_entry SET outcome = $1', ['failure'])).rejects.toThrow(/append-only/);
    await expect(identity.dataSource.query('DELETE FROM audit_entry')).rejects.toThrow(/append-only/);
    await expect(identity.dataSource.query('TRUNCATE audit_entry')).rejects.toThrow(/append-only/);
  });
});

describe('the bootstrap platform key', () => {
  it('is created once, written to a file only its owner can read, and works', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'stdreg-bootstrap-'));
    const file = path.join(directory, 'bootstrap-platform-key');
    try {
      await identity.dataSource.query(`UPDATE api_key SET revoked_at = now() WHERE class = 'platform' AND revoked_at IS NULL`);
      const prefix = await bootstrapPlatformKey(identity.app.get(KeysService), file);
      expect(prefix).toMatch(/^[a-z2-7]{10}$/);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const key = (await readFile(file, 'utf8')).trim();
      await request(identity.server).get('/v1/organizations').set(bearer(key)).expect(200);
      expect(await bootstrapPlatformKey(identity.app.get(KeysService), file)).toBeNull();
      identity.platformKey = key;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
