import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { UnifiedUsersService } from '../src/people/unified-users/unified-users.service';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
let organizationId: string;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);

beforeAll(async () => {
  identity = await startIdentity();
  const { body } = await request(identity.server).post('/v1/organizations').set(platform()).send({ name: 'Roles Org' }).expect(201);
  organizationId = body.id;
});
afterAll(() => identity.close());

async function newUser(): Promise<string> {
  const uid = uuidv7();
  await identity.dataSource.query('INSERT INTO unified_user (uid) VALUES ($1)', [uid]);
  return uid;
}

const grant = (body: object) => request(identity.server).post('/v1/role-bindings').set(platform()).send(body);
const list = (uid: string) => request(identity.server).get(`/v1/role-bindings?uid=${uid}`).set(platform());
const revoke = (id: string) => request(identity.server).delete(`/v1/role-bindings/${id}`).set(platform());
const bindingsOf = (uid: string) =>
  identity.dataSource.query('SELECT role, organization_id FROM role_binding WHERE uid = $1 ORDER BY id', [uid]);

describe('role bindings', () => {
  it('grants a global and an organization-scoped role, lists them and revokes one', async () => {
    const uid = await newUser();
    const global = await grant({ uid, role: 'platform-operator' }).expect(201);
    expect(global.body).toEqual({
      id: expect.any(String),
      uid,
      role: 'platform-operator',
      organizationId: null,
      grantedAt: expect.any(String),
    });
    const scoped = await grant({ uid, role: 'project-owner', organizationId }).expect(201);
    expect(scoped.body).toMatchObject({ uid, role: 'project-owner', organizationId });
    const listed = await list(uid).expect(200);
    expect(listed.body).toEqual({ items: [global.body, scoped.body] });
    await revoke(global.body.id).expect(204);
    expect((await list(uid).expect(200)).body).toEqual({ items: [scoped.body] });
    await revoke(global.body.id).expect(404);
  });

  it('refuses the same binding twice with 409, globally and in an organization, and keeps one', async () => {
    const uid = await newUser();
    await grant({ uid, role: 'investor' }).expect(201);
    const again = await grant({ uid, role: 'investor' }).expect(409);
    expect(again.body.code).toBe('conflict');
    await grant({ uid, role: 'investor', organizationId }).expect(201);
    await grant({ uid, role: 'investor', organizationId }).expect(409);
    expect(await bindingsOf(uid)).toEqual([
      { role: 'investor', organization_id: null },
      { role: 'investor', organization_id: organizationId },
    ]);
  });

  it('lets exactly one of many parallel identical grants through', async () => {
    const uid = await newUser();
    const responses = await Promise.all(Array.from({ length: 6 }, () => grant({ uid, role: 'finance-controller', organizationId })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await bindingsOf(uid)).toHaveLength(1);
  });

  it('refuses an unknown role (400), organization (422), user (404) or binding id (404), changing nothing', async () => {
    const uid = await newUser();
    const badRole = await grant({ uid, role: 'superuser' }).expect(400);
    expect(badRole.body.errors[0]).toMatchObject({ field: 'role', message: expect.stringContaining('role must be one of: project-owner') });
    const badOrganization = await grant({ uid, role: 'investor', organizationId: uuidv7() }).expect(422);
    expect(badOrganization.body.errors).toEqual([
      { field: 'organizationId', message: 'organizationId must name an existing organization' },
    ]);
    await grant({ uid: uuidv7(), role: 'investor' }).expect(404);
    const badUid = await grant({ uid: 'not-a-uid', role: 'investor' }).expect(400);
    expect(badUid.body.errors[0].field).toBe('uid');
    const badOrganizationId = await grant({ uid, role: 'investor', organizationId: 'not-an-id' }).expect(400);
    expect(badOrganizationId.body.errors[0].field).toBe('organizationId');
    await revoke(uuidv7()).expect(404);
    await revoke('not-an-id').expect(400);
    await list(uuidv7()).expect(404);
    await list('not-a-uid').expect(400);
    expect(await bindingsOf(uid)).toEqual([]);
  });

  it('grants to and lists through a merged uid as its survivor, whose effective roles include what the merged user had', async () => {
    const [survivor, merged] = [await newUser(), await newUser()];
    await grant({ uid: merged, role: 'external-auditor' }).expect(201);
    await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform())
      .send({ survivorUid: survivor, mergedUid: merged })
      .expect(201);
    const granted = await grant({ uid: merged, role: 'agent-supervisor', organizationId }).expect(201);
    expect(granted.body.uid).toBe(survivor);
    await grant({ uid: merged, role: 'external-auditor' }).expect(409);
    const listed = await list(merged).expect(200);
    expect(listed.body.items.map((item: { uid: string; role: string }) => [item.uid, item.role])).toEqual([
      [survivor, 'external-auditor'],
      [survivor, 'agent-supervisor'],
    ]);
    const users = identity.app.get(UnifiedUsersService);
    const expected = [
      { role: 'external-auditor', organizationId: null },
      { role: 'agent-supervisor', organizationId },
    ];
    expect(await users.effectiveRoles(merged)).toEqual(expected);
    expect(await users.effectiveRoles(survivor)).toEqual(expected);
    expect(await users.effectiveRoles(uuidv7())).toEqual([]);
  });

  it('refuses every route to an app key with 403', async () => {
    const partner = await identity.newAppKey();
    const uid = await newUser();
    const binding = await grant({ uid, role: 'investor' }).expect(201);
    const routes: [string, string, object][] = [
      ['post', '/v1/role-bindings', { uid, role: 'scenario-modeller' }],
      ['get', `/v1/role-bindings?uid=${uid}`, {}],
      ['delete', `/v1/role-bindings/${binding.body.id}`, {}],
    ];
    for (const [method, route, body] of routes) {
      const response = await (request(identity.server) as unknown as Record<string, (url: string) => request.Test>)[method]!(route)
        .set(bearer(partner.secret))
        .send(body);
      expect({ route, status: response.status, code: response.body.code }).toEqual({ route, status: 403, code: 'forbidden' });
    }
    expect(await bindingsOf(uid)).toEqual([{ role: 'investor', organization_id: null }]);
  });

  it('records grants and revocations in the audit log with the platform key prefix as actor', async () => {
    const uid = await newUser();
    const binding = await grant({ uid, role: 'settlement-approver', organizationId }).set('X-Request-Id', 'grant-req-1').expect(201);
    const revoked = await revoke(binding.body.id).expect(204);
    const entries = await identity.dataSource.query(
      `SELECT actor_kind, actor_id, action, outcome, detail, request_id FROM audit_entry
        WHERE action IN ('roles.grant', 'roles.revoke') AND target = $1 ORDER BY id`,
      [binding.body.id],
    );
    const actor = { actor_kind: 'platform_key', actor_id: identity.platformKey.split('_')[2], outcome: 'success' };
    expect(entries).toEqual([
      {
        ...actor,
        action: 'roles.grant',
        detail: { uid, role: 'settlement-approver', organizationId, requestedUid: uid },
        request_id: 'grant-req-1',
      },
      {
        ...actor,
        action: 'roles.revoke',
        detail: { uid, role: 'settlement-approver', organizationId },
        request_id: revoked.headers['x-request-id'],
      },
    ]);
  });

  it('lists the routes in the OpenAPI document', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/v1/role-bindings', '/v1/role-bindings/{id}']));
    expect(body.paths['/v1/role-bindings'].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'uid', in: 'query', required: true })]),
    );
  });
});
