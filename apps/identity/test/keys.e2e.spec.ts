import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import request from 'supertest';
import { JsonLogger } from '@stdreg/server-kit';
import { KeyAuthentication } from '../src/access/callers/key-authentication';
import { KeyLeases } from '../src/access/callers/key-leases';
import { KeysService } from '../src/access/keys/keys.service';
import { bootstrapPlatformKey } from '../src/access/bootstrap/first-platform-key';
import { BootstrapService } from '../src/access/bootstrap/bootstrap.service';
import { IdentityConfig } from '../src/platform/config/identity.config';
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

  it('takes the bearer scheme in any case, as OAuth clients echo a token_type of "bearer"', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer  '])
      await request(identity.server).get('/v1/keys').set('Authorization', `${scheme} ${identity.platformKey}`).expect(200);
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

  it("ends a rotated-out secret by the database's clock, not by a replica's that runs behind or ahead of it", async () => {
    const keys = identity.app.get(KeyAuthentication);
    // This replica's clock only (the key check reads it through its leases): PGlite would follow Date.now.
    const skewed = async (skewMs: number, check: () => Promise<void>) => {
      const clock = jest.spyOn(identity.app.get(KeyLeases), 'wallMs').mockReturnValue(Date.now() + skewMs);
      try {
        await check();
      } finally {
        clock.mockRestore();
      }
    };
    const cut = await identity.newAppKey();
    await request(identity.server)
      .post(`/v1/keys/${cut.key.id}/rotate`)
      .set(bearer(identity.platformKey))
      .send({ gracePeriodSeconds: 0 })
      .expect(200);
    await skewed(-60_000, async () => {
      expect(await keys.authenticate(cut.secret)).toBeNull();
      expect(await keys.subjectOf(cut.secret)).toBeNull();
    });

    const graced = await identity.newAppKey();
    await request(identity.server)
      .post(`/v1/keys/${graced.key.id}/rotate`)
      .set(bearer(identity.platformKey))
      .send({ gracePeriodSeconds: 600 })
      .expect(200);
    await skewed(900_000, async () => {
      expect(await keys.authenticate(graced.secret)).toMatchObject({ keyId: graced.key.id });
      expect(await keys.subjectOf(graced.secret)).toMatchObject({ keyId: graced.key.id });
    });
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
    // A use names the method and path, never the query string.
    expect(audit.body.items).toContainEqual(expect.objectContaining({ action: 'key.use', target: 'GET /v1/audit' }));
    expect(
      audit.body.items.find((e: { action: string; target: string }) => e.action === 'keys.create' && e.target === app.key.id),
    ).toBeDefined();
    await expect(identity.dataSource.query('UPDATE audit_entry SET outcome = $1', ['failure'])).rejects.toThrow(/append-only/);
    await expect(identity.dataSource.query('DELETE FROM audit_entry')).rejects.toThrow(/append-only/);
    await expect(identity.dataSource.query('TRUNCATE audit_entry')).rejects.toThrow(/append-only/);
  });
});

describe('what a key is issued with, and what later writes do to it', () => {
  const platform = () => bearer(identity.platformKey);
  const keyCount = async (): Promise<number> => (await identity.dataSource.query('SELECT count(*)::int AS n FROM api_key'))[0].n;
  const auditOf = (action: string, target: string): Promise<{ actor_kind: string; detail: Record<string, unknown> | null }[]> =>
    identity.dataSource.query('SELECT actor_kind, detail FROM audit_entry WHERE action = $1 AND target = $2 ORDER BY id', [action, target]);

  it("binds the registries named at creation, and refuses an unknown, deleted or another organization's one with 422, creating nothing", async () => {
    const organization = (await request(identity.server).post('/v1/organizations').set(platform()).send({ name: 'Bound Co' }).expect(201))
      .body.id;
    const registrar = await request(identity.server)
      .post('/v1/keys')
      .set(platform())
      .send({ name: 'registrar', class: 'app', organizationId: organization })
      .expect(201);
    const live = await identity.newRegistry(registrar.body.secret);
    const deleted = await identity.newRegistry(registrar.body.secret);
    await request(identity.server).delete(`/v1/apps/${deleted.registryId}`).set(bearer(deleted.key)).expect(204);
    const anotherOrganizations = await identity.newRegistry();
    const create = (allowedRegistryIds: string[]) =>
      request(identity.server)
        .post('/v1/keys')
        .set(platform())
        .send({ name: 'bound', class: 'app', organizationId: organization, allowedRegistryIds });

    const before = await keyCount();
    for (const refused of [['reg_00000000000000000000'], [live.registryId, deleted.registryId]]) {
      const response = await create(refused).expect(422);
      expect(response.body).toMatchObject({ domainCode: 'keys.registries_unknown', errors: [{ field: 'allowedRegistryIds' }] });
      expect(response.body.detail).not.toContain(live.registryId);
    }
    const foreign = await create([live.registryId, anotherOrganizations.registryId]).expect(422);
    expect(foreign.body).toMatchObject({
      domainCode: 'keys.registries_of_another_organization',
      errors: [{ field: 'allowedRegistryIds' }],
    });
    expect(foreign.body.detail).toContain(anotherOrganizations.registryId);
    expect(foreign.body.detail).not.toContain(live.registryId);
    expect(await keyCount()).toBe(before);

    const bound = await create([live.registryId]).expect(201);
    expect(bound.body.key.allowedRegistryIds).toEqual([live.registryId]);
    await request(identity.server).get(`/v1/apps/${live.registryId}`).set(bearer(bound.body.secret)).expect(200);
  });

  it('lists the keys of the class asked for, each once, page by page', async () => {
    const mine = [await identity.newAppKey(), await identity.newAppKey(), await identity.newAppKey()].map((issued) => issued.key.id);
    const seen: { id: string; class: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await request(identity.server)
        .get('/v1/keys')
        .query({ class: 'app', limit: 2, ...(cursor ? { cursor } : {}) })
        .set(platform())
        .expect(200);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const ids = seen.map((key) => key.id);
    expect(seen.every((key) => key.class === 'app')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(mine));
    const platforms = await request(identity.server).get('/v1/keys').query({ class: 'platform', limit: 100 }).set(platform()).expect(200);
    expect(platforms.body.items.length).toBeGreaterThan(0);
    expect(platforms.body.items.every((key: { class: string }) => key.class === 'platform')).toBe(true);
  });

  it('shows a rotated key under its new prefix and rotation time, and records the rotation with both', async () => {
    const app = await identity.newAppKey();
    const rotated = await request(identity.server)
      .post(`/v1/keys/${app.key.id}/rotate`)
      .set(platform())
      .send({ gracePeriodSeconds: 60 })
      .expect(200);
    const newPrefix = rotated.body.secret.split('_')[2];
    expect(newPrefix).not.toBe(app.key.prefix);
    expect(rotated.body.key).toMatchObject({ prefix: newPrefix, rotatedAt: expect.any(String) });
    const read = await request(identity.server).get(`/v1/keys/${app.key.id}`).set(platform()).expect(200);
    expect(read.body).toMatchObject({ prefix: newPrefix, rotatedAt: rotated.body.key.rotatedAt });
    expect(await auditOf('keys.rotate', app.key.id)).toEqual([
      { actor_kind: 'platform_key', detail: { prefix: newPrefix, graceSeconds: 60 } },
    ]);
  });

  it('records a revocation once, answers a second one as the first without recording or announcing it again, and answers 404 for a key that does not exist', async () => {
    const app = await identity.newAppKey();
    const first = await request(identity.server).post(`/v1/keys/${app.key.id}/revoke`).set(platform()).expect(200);
    expect(first.body.revokedAt).toEqual(expect.any(String));
    const recorded = [{ actor_kind: 'platform_key', detail: { passwordLinksVoided: 0 } }];
    expect(await auditOf('keys.revoke', app.key.id)).toEqual(recorded);
    const revokedEvents = () =>
      identity.dataSource.query(`SELECT id FROM event_outbox WHERE type = 'key.revoked' AND resource = $1`, [`key:${app.key.id}`]);
    expect(await revokedEvents()).toHaveLength(1);
    const again = await request(identity.server).post(`/v1/keys/${app.key.id}/revoke`).set(platform()).expect(200);
    expect(again.body).toEqual(first.body);
    // Revoking again changes nothing: no second audit entry, no second event for the partner.
    expect(await auditOf('keys.revoke', app.key.id)).toEqual(recorded);
    expect(await revokedEvents()).toHaveLength(1);

    const missing = '01900000-0000-7000-8000-000000000000';
    for (const [method, route] of [
      ['get', `/v1/keys/${missing}`],
      ['post', `/v1/keys/${missing}/rotate`],
      ['post', `/v1/keys/${missing}/revoke`],
    ] as const) {
      const response = await request(identity.server)[method](route).set(platform()).send({});
      expect({ route, status: response.status, domainCode: response.body.domainCode }).toEqual({
        route,
        status: 404,
        domainCode: 'keys.not_found',
      });
    }
  });
});

describe('the bootstrap platform key', () => {
  const activePlatformKeys = async (): Promise<number> =>
    (await identity.dataSource.query(`SELECT count(*)::int AS n FROM api_key WHERE class = 'platform' AND revoked_at IS NULL`))[0].n;

  it('is not created at start when BOOTSTRAP_PLATFORM_KEY is off', async () => {
    const made = await identity.dataSource.query(`SELECT count(*)::int AS n FROM api_key WHERE name = 'bootstrap platform key'`);
    expect(made[0].n).toBe(0);
  });

  it('is created by the start-up step only when BOOTSTRAP_PLATFORM_KEY is auto, in DATA_DIR', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'stdreg-bootstrap-'));
    const file = path.join(directory, 'bootstrap-platform-key');
    const startUp = (setting: 'auto' | 'off') =>
      new BootstrapService(
        identity.app.get(KeysService),
        { ...identity.app.get(IdentityConfig), BOOTSTRAP_PLATFORM_KEY: setting, DATA_DIR: directory } as IdentityConfig,
        identity.app.get(JsonLogger),
      ).onApplicationBootstrap();
    try {
      await identity.dataSource.query(`UPDATE api_key SET revoked_at = now() WHERE class = 'platform' AND revoked_at IS NULL`);
      await startUp('off');
      expect(await activePlatformKeys()).toBe(0);
      await expect(stat(file)).rejects.toThrow();
      await startUp('auto');
      expect(await activePlatformKeys()).toBe(1);
      identity.platformKey = (await readFile(file, 'utf8')).trim();
      await request(identity.server).get('/v1/organizations').set(bearer(identity.platformKey)).expect(200);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('is not kept when it cannot be written: no platform key is left that nobody holds', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'stdreg-bootstrap-'));
    try {
      await identity.dataSource.query(`UPDATE api_key SET revoked_at = now() WHERE class = 'platform' AND revoked_at IS NULL`);
      await writeFile(path.join(directory, 'not-a-directory'), '');
      const unwritable = path.join(directory, 'not-a-directory', 'bootstrap-platform-key');
      await expect(bootstrapPlatformKey(identity.app.get(KeysService), unwritable)).rejects.toThrow();
      expect(await activePlatformKeys()).toBe(0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

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

  it('is created once by replicas starting together', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'stdreg-bootstrap-'));
    try {
      await identity.dataSource.query(`UPDATE api_key SET revoked_at = now() WHERE class = 'platform' AND revoked_at IS NULL`);
      const files = [0, 1, 2, 3].map((i) => path.join(directory, `replica-${i}`));
      const prefixes = await Promise.all(files.map((file) => bootstrapPlatformKey(identity.app.get(KeysService), file)));
      expect(prefixes.filter((prefix) => prefix !== null)).toHaveLength(1);
      expect(await activePlatformKeys()).toBe(1);
      identity.platformKey = (await readFile(files[prefixes.findIndex((prefix) => prefix !== null)]!, 'utf8')).trim();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
