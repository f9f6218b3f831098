import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const LOOPBACK = /^(::ffff:127\.0\.0\.1|127\.0\.0\.1|::1)$/;

const validRequest = (organizationName = `Acme ${randomBytes(4).toString('hex')}`) => ({
  organizationName,
  contactName: 'Ada Lovelace',
  contactEmail: 'ada@acme.example',
  useCase: 'A member portal that signs people in with their registry identity.',
});

async function submit(body: Record<string, unknown> = validRequest()): Promise<request.Response> {
  return request(identity.server).post('/v1/waitlist').send(body);
}

async function pendingRequest(organizationName?: string): Promise<{ id: string; organizationName: string }> {
  const response = await submit(validRequest(organizationName));
  expect(response.status).toBe(201);
  return response.body;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const rows: { n: number }[] = await identity.dataSource.query(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0]!.n;
}

beforeAll(async () => {
  // This file sends more waitlist requests from one address than the default hourly allowance.
  identity = await startIdentity({ RATE_LIMIT_WAITLIST_PER_HOUR: '1000' });
});
afterAll(() => identity.close());

describe('POST /v1/waitlist', () => {
  it('records an anonymous request as pending and audits it with the client IP', async () => {
    const response = await submit(validRequest('  Acme Cooperative  '));
    expect(response.status).toBe(201);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationName: 'Acme Cooperative',
      contactName: 'Ada Lovelace',
      contactEmail: 'ada@acme.example',
      useCase: 'A member portal that signs people in with their registry identity.',
      status: 'pending',
      createdAt: expect.any(String),
      decidedAt: null,
      decisionReason: null,
      issuedKeyId: null,
    });
    const audit = await identity.dataSource.query('SELECT actor_kind, actor_id FROM audit_entry WHERE action = $1 AND target = $2', [
      'waitlist.request',
      response.body.id,
    ]);
    expect(audit).toEqual([{ actor_kind: 'anonymous', actor_id: expect.stringMatching(LOOPBACK) }]);
    const read = await request(identity.server).get(`/v1/waitlist/${response.body.id}`).set(bearer(identity.platformKey)).expect(200);
    expect(read.body).toEqual(response.body);
  });

  it('stores every text without the spaces around it', async () => {
    const response = await submit({ ...validRequest(), contactName: '  Ada Lovelace ', useCase: '\n A member portal.  ' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ contactName: 'Ada Lovelace', useCase: 'A member portal.' });
    const stored = await identity.dataSource.query('SELECT contact_name, use_case FROM waitlist_request WHERE id = $1', [response.body.id]);
    expect(stored).toEqual([{ contact_name: 'Ada Lovelace', use_case: 'A member portal.' }]);
  });

  it('refuses invalid requests naming the field, and stores nothing', async () => {
    const before = await count('waitlist_request');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validRequest(), contactEmail: 'not-an-email' }, 'contactEmail'],
      [{ ...validRequest(), organizationName: 'x'.repeat(201) }, 'organizationName'],
      [{ ...validRequest(), useCase: '   ' }, 'useCase'],
      [{ ...validRequest(), contactName: undefined }, 'contactName'],
      [{ ...validRequest(), contactName: 'c'.repeat(201) }, 'contactName'],
      [{ ...validRequest(), useCase: 'u'.repeat(2001) }, 'useCase'],
    ];
    for (const [body, field] of cases) {
      const response = await submit(body);
      expect({ field, status: response.status, code: response.body.code }).toEqual({ field, status: 400, code: 'validation_failed' });
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const unknown = await submit({ ...validRequest(), status: 'approved' });
    expect(unknown.body.errors[0]).toEqual({ field: 'status', message: 'status is not an accepted field' });
    expect(await count('waitlist_request')).toBe(before);
  });
});

describe('approving a request', () => {
  it('creates the organization and issues a working App key bound to it, in one audited decision', async () => {
    const pending = await pendingRequest();
    const { body } = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/approve`)
      .set(bearer(identity.platformKey))
      .send({ maxApps: 2 })
      .expect(200);
    expect(body.request).toMatchObject({
      id: pending.id,
      status: 'approved',
      decidedAt: expect.any(String),
      issuedKeyId: body.issued.key.id,
    });
    expect(body.issued.key).toMatchObject({
      class: 'app',
      name: `${pending.organizationName} (waitlist)`,
      maxApps: 2,
      organizationId: expect.any(String),
    });
    expect(body.issued.secret).toMatch(/^stdreg_app_/);

    const organization = await request(identity.server)
      .get(`/v1/organizations/${body.issued.key.organizationId}`)
      .set(bearer(identity.platformKey))
      .expect(200);
    expect(organization.body.name).toBe(pending.organizationName);
    const apps = await request(identity.server).get('/v1/apps').set(bearer(body.issued.secret)).expect(200);
    expect(apps.body).toEqual({ items: [], nextCursor: null });
    const registered = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(body.issued.secret))
      .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
      .expect(201);
    expect(registered.body.app.organizationId).toBe(body.issued.key.organizationId);

    const stored = await identity.dataSource.query('SELECT status, decided_at, issued_key_id FROM waitlist_request WHERE id = $1', [
      pending.id,
    ]);
    expect(stored).toEqual([{ status: 'approved', decided_at: expect.any(Date), issued_key_id: body.issued.key.id }]);
    const actions = await identity.dataSource.query(
      `SELECT action, target FROM audit_entry WHERE action IN ('waitlist.approve', 'organizations.create', 'keys.create') AND target = ANY($1) ORDER BY id`,
      [[pending.id, body.issued.key.organizationId, body.issued.key.id]],
    );
    expect(actions.map((a: { action: string }) => a.action)).toEqual(['organizations.create', 'keys.create', 'waitlist.approve']);
    const approval = await identity.dataSource.query(
      `SELECT actor_kind, detail FROM audit_entry WHERE action = 'waitlist.approve' AND target = $1`,
      [pending.id],
    );
    expect(approval).toEqual([
      { actor_kind: 'platform_key', detail: { organizationId: body.issued.key.organizationId, keyId: body.issued.key.id } },
    ]);
  });

  it('issues the key for an existing organization when one is named, creating none', async () => {
    const existing = await request(identity.server)
      .post('/v1/organizations')
      .set(bearer(identity.platformKey))
      .send({ name: 'Existing Co' })
      .expect(201);
    const pending = await pendingRequest();
    const organizations = await count('organization');
    const { body } = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/approve`)
      .set(bearer(identity.platformKey))
      .send({ organizationId: existing.body.id })
      .expect(200);
    expect(body.issued.key).toMatchObject({ organizationId: existing.body.id, maxApps: 3 });
    expect(await count('organization')).toBe(organizations);
  });

  it('refuses an unknown organization with 422 and leaves the request pending, with no key or organization made', async () => {
    const pending = await pendingRequest();
    const [keys, organizations] = [await count('api_key'), await count('organization')];
    const response = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/approve`)
      .set(bearer(identity.platformKey))
      .send({ organizationId: uuidv7() })
      .expect(422);
    expect(response.body.errors[0].field).toBe('organizationId');
    expect([await count('api_key'), await count('organization')]).toEqual([keys, organizations]);
    expect(await count(`waitlist_request WHERE id = $1 AND status = 'pending'`, [pending.id])).toBe(1);
    expect(await count(`audit_entry WHERE action = 'waitlist.approve' AND target = $1`, [pending.id])).toBe(0);
  });

  it('lets exactly one of concurrent approvals through and issues one key', async () => {
    const pending = await pendingRequest();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        request(identity.server).post(`/v1/waitlist/${pending.id}/approve`).set(bearer(identity.platformKey)).send({}),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await count('api_key WHERE name = $1', [`${pending.organizationName} (waitlist)`])).toBe(1);
    expect(await count('organization WHERE name = $1', [pending.organizationName])).toBe(1);
    expect(await count(`audit_entry WHERE action = 'waitlist.approve' AND target = $1`, [pending.id])).toBe(1);
  });

  it('refuses invalid decisions naming the field', async () => {
    const pending = await pendingRequest();
    const approve = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/approve`)
      .set(bearer(identity.platformKey))
      .send({ maxApps: 0 })
      .expect(400);
    expect(approve.body.errors[0].field).toBe('maxApps');
    const reject = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/reject`)
      .set(bearer(identity.platformKey))
      .send({ reason: 'r'.repeat(501) })
      .expect(400);
    expect(reject.body.errors[0].field).toBe('reason');
    for (const [decision, body, field] of [
      ['approve', { maxApps: 101 }, 'maxApps'],
      ['approve', { organizationId: 'not-a-uuid' }, 'organizationId'],
      ['reject', { reason: '' }, 'reason'],
    ] as const) {
      const refused = await request(identity.server)
        .post(`/v1/waitlist/${pending.id}/${decision}`)
        .set(bearer(identity.platformKey))
        .send(body)
        .expect(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(await count(`waitlist_request WHERE id = $1 AND status = 'pending'`, [pending.id])).toBe(1);
  });
});

describe('rejecting and deciding twice', () => {
  it('rejects a request with its reason, in an audited decision', async () => {
    const pending = await pendingRequest();
    const { body } = await request(identity.server)
      .post(`/v1/waitlist/${pending.id}/reject`)
      .set(bearer(identity.platformKey))
      .send({ reason: '  Not a registry partner ' })
      .expect(200);
    expect(body).toMatchObject({
      id: pending.id,
      status: 'rejected',
      decidedAt: expect.any(String),
      decisionReason: 'Not a registry partner',
      issuedKeyId: null,
    });
    const audit = await identity.dataSource.query(
      `SELECT actor_kind, detail FROM audit_entry WHERE action = 'waitlist.reject' AND target = $1`,
      [pending.id],
    );
    expect(audit).toEqual([{ actor_kind: 'platform_key', detail: { reason: 'Not a registry partner' } }]);
  });

  it('refuses to decide a decided request with 409 and changes nothing', async () => {
    const approved = await pendingRequest();
    await request(identity.server).post(`/v1/waitlist/${approved.id}/approve`).set(bearer(identity.platformKey)).send({}).expect(200);
    const rejected = await pendingRequest();
    await request(identity.server).post(`/v1/waitlist/${rejected.id}/reject`).set(bearer(identity.platformKey)).send({}).expect(200);
    const snapshot = () =>
      identity.dataSource.query('SELECT * FROM waitlist_request WHERE id = ANY($1) ORDER BY id', [[approved.id, rejected.id]]);
    const [before, keys] = [await snapshot(), await count('api_key')];
    for (const id of [approved.id, rejected.id]) {
      for (const decision of ['approve', 'reject']) {
        const response = await request(identity.server)
          .post(`/v1/waitlist/${id}/${decision}`)
          .set(bearer(identity.platformKey))
          .send({})
          .expect(409);
        expect(response.body.code).toBe('conflict');
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(await count('api_key')).toBe(keys);
  });

  it('answers 404 for an unknown request', async () => {
    const id = uuidv7();
    await request(identity.server).get(`/v1/waitlist/${id}`).set(bearer(identity.platformKey)).expect(404);
    await request(identity.server).post(`/v1/waitlist/${id}/approve`).set(bearer(identity.platformKey)).send({}).expect(404);
    await request(identity.server).post(`/v1/waitlist/${id}/reject`).set(bearer(identity.platformKey)).send({}).expect(404);
  });
});

describe('GET /v1/waitlist', () => {
  it('lists pending requests by default, in keyset pages, and other statuses on request', async () => {
    const mine = [await pendingRequest(), await pendingRequest(), await pendingRequest()];
    await request(identity.server).post(`/v1/waitlist/${mine[1]!.id}/reject`).set(bearer(identity.platformKey)).send({}).expect(200);
    const seen: { id: string; status: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await request(identity.server)
        .get('/v1/waitlist')
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .set(bearer(identity.platformKey))
        .expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.every((item) => item.status === 'pending')).toBe(true);
    const ids = seen.map((item) => item.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([mine[0]!.id, mine[2]!.id]));
    expect(ids).not.toContain(mine[1]!.id);

    const rejected = await request(identity.server)
      .get('/v1/waitlist?status=rejected&limit=100')
      .set(bearer(identity.platformKey))
      .expect(200);
    expect(rejected.body.items.map((item: { id: string }) => item.id)).toContain(mine[1]!.id);
    expect(rejected.body.items.every((item: { status: string }) => item.status === 'rejected')).toBe(true);
  });

  it('refuses an unknown status and a cursor from another status list', async () => {
    const status = await request(identity.server).get('/v1/waitlist?status=archived').set(bearer(identity.platformKey)).expect(400);
    expect(status.body.errors[0].field).toBe('status');
    await pendingRequest();
    await pendingRequest();
    const page = await request(identity.server).get('/v1/waitlist?limit=1').set(bearer(identity.platformKey)).expect(200);
    const foreign = await request(identity.server)
      .get('/v1/waitlist')
      .query({ status: 'approved', cursor: page.body.nextCursor })
      .set(bearer(identity.platformKey))
      .expect(400);
    expect(foreign.body.errors[0].field).toBe('cursor');
  });
});

describe('the platform routes of the waitlist', () => {
  it('refuse app keys with 403 and anonymous callers with 401, deciding nothing', async () => {
    const pending = await pendingRequest();
    const app = await identity.newAppKey();
    const routes: [string, string][] = [
      ['get', '/v1/waitlist'],
      ['get', `/v1/waitlist/${pending.id}`],
      ['post', `/v1/waitlist/${pending.id}/approve`],
      ['post', `/v1/waitlist/${pending.id}/reject`],
    ];
    for (const [method, route] of routes) {
      const agent = request(identity.server) as unknown as Record<string, (url: string) => request.Test>;
      const forbidden = await agent[method]!(route).set(bearer(app.secret)).send({});
      expect({ route, status: forbidden.status, code: forbidden.body.code }).toEqual({ route, status: 403, code: 'forbidden' });
      const anonymous = await agent[method]!(route).send({});
      expect({ route, status: anonymous.status }).toEqual({ route, status: 401 });
    }
    expect(await count(`waitlist_request WHERE id = $1 AND status = 'pending'`, [pending.id])).toBe(1);
  });
});

describe('the per-IP limit of waitlist requests', () => {
  let limited: RunningIdentity;
  beforeAll(async () => {
    limited = await startIdentity({ RATE_LIMIT_WAITLIST_PER_HOUR: '3', TRUSTED_PROXY_HOPS: '1' });
  });
  afterAll(() => limited.close());

  it('refuses the request after the hourly allowance with 429, Retry-After and problem details, storing nothing', async () => {
    for (const remaining of ['2', '1', '0']) {
      const accepted = await request(limited.server).post('/v1/waitlist').send(validRequest()).expect(201);
      expect([accepted.headers['x-ratelimit-limit'], accepted.headers['x-ratelimit-remaining']]).toEqual(['3', remaining]);
    }
    const refused = await request(limited.server).post('/v1/waitlist').send(validRequest('Fourth Co')).expect(429);
    // 3 an hour: the next request is allowed once a third of an hour has passed, not a third of a minute.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1100);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(1200);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', title: 'Too many requests' });
    const stored: { n: number }[] = await limited.dataSource.query(`SELECT count(*)::int AS n FROM waitlist_request`);
    expect(stored[0]!.n).toBe(3);
    const fourth: { n: number }[] = await limited.dataSource.query(
      `SELECT count(*)::int AS n FROM waitlist_request WHERE organization_name = 'Fourth Co'`,
    );
    expect(fourth[0]!.n).toBe(0);
    const audited: { n: number }[] = await limited.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_entry WHERE action = 'waitlist.request'`,
    );
    expect(audited[0]!.n).toBe(3);
  });

  it("keeps each address's allowance apart: one address using up its own leaves another's", async () => {
    const from = (address: string, name: string) =>
      request(limited.server).post('/v1/waitlist').set('X-Forwarded-For', address).send(validRequest(name));
    for (let i = 0; i < 3; i++) await from('203.0.113.50', `Busy ${i}`).expect(201);
    await from('203.0.113.50', 'Busy 3').expect(429);
    const other = await from('203.0.113.51', 'Quiet Co').expect(201);
    expect(other.headers['x-ratelimit-remaining']).toBe('2');
  });
});
