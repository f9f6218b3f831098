import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { REMOVED_ENDPOINT_AUDIT_DAYS, WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// Every identity route that changes something, performed once against the real service: the request leaves exactly
// one audit entry per change it made (read by the request id it carried; `key.use` is the key's use, not the change),
// naming the key that acted (an agent's key with its supervisor), the target and the outcome. A refused request
// leaves none.

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const prefixOf = (secret: string) => secret.split('_')[2]!;

beforeAll(async () => {
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true', RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000' });
});
afterAll(() => identity.close());

interface Entry {
  actorKind: string;
  actorId: string;
  action: string;
  target: string | null;
  outcome: string;
  supervisor: string | null;
}

type Method = 'post' | 'patch' | 'delete';

/** Performs one request under a request id of its own; answers its response and the audit entries it wrote. */
async function act(
  method: Method,
  path: string,
  key: string | null,
  body?: object,
): Promise<{ status: number; body: request.Response['body']; entries: Entry[] }> {
  const requestId = `audit-${randomBytes(8).toString('hex')}`;
  let call = request(identity.server)[method](path).set('X-Request-Id', requestId);
  if (key) call = call.set(bearer(key));
  const response = body === undefined ? await call : await call.send(body);
  const entries = (await identity.dataSource.query(
    `SELECT actor_kind AS "actorKind", actor_id AS "actorId", action, target, outcome, detail->>'supervisor' AS supervisor
       FROM audit_entry WHERE request_id = $1 AND action <> 'key.use' ORDER BY at, id`,
    [requestId],
  )) as Entry[];
  return { status: response.status, body: response.body, entries };
}

const by = (secret: string, kind = secret.startsWith('stdreg_platform_') ? 'platform_key' : 'app_key') => ({
  actorKind: kind,
  actorId: prefixOf(secret),
  supervisor: null,
});

const record = (externalId: string) => ({
  externalId,
  email: `${externalId}-${randomBytes(4).toString('hex')}@example.com`,
  emailVerified: true,
  displayName: externalId,
  locale: 'en',
});
const person = (registryId: string, externalId: string) => ({ registryId, ...record(externalId) });

describe("identity's audit trail: one entry for each change, naming who made it", () => {
  it("records each write of a platform key's routes once, with the key, the target and the outcome", async () => {
    const platform = identity.platformKey;
    const actor = by(platform);

    const organization = await act('post', '/v1/organizations', platform, { name: `Org ${randomBytes(3).toString('hex')}` });
    expect(organization.status).toBe(201);
    expect(organization.entries).toEqual([{ ...actor, action: 'organizations.create', target: organization.body.id, outcome: 'success' }]);

    const key = await act('post', '/v1/keys', platform, { name: 'partner', class: 'app', organizationId: organization.body.id });
    expect(key.status).toBe(201);
    expect(key.entries).toEqual([{ ...actor, action: 'keys.create', target: key.body.key.id, outcome: 'success' }]);

    const rotated = await act('post', `/v1/keys/${key.body.key.id}/rotate`, platform, {});
    expect(rotated.status).toBe(200);
    expect(rotated.entries).toEqual([{ ...actor, action: 'keys.rotate', target: key.body.key.id, outcome: 'success' }]);
    const partnerKey = rotated.body.secret as string;

    const app = await act('post', '/v1/apps', partnerKey, {
      name: 'Portal',
      type: 'Traditional',
      redirectUris: ['https://portal.example/cb'],
    });
    const registryId = app.body.app.registryId as string;
    const user = await act('post', '/v1/users', partnerKey, person(registryId, 'p-1'));
    const other = await act('post', '/v1/users', partnerKey, person(registryId, 'p-2'));

    const granted = await act('post', '/v1/role-bindings', platform, {
      uid: user.body.uid,
      role: 'project-owner',
      organizationId: organization.body.id,
    });
    expect(granted.status).toBe(201);
    expect(granted.entries).toEqual([{ ...actor, action: 'roles.grant', target: granted.body.id, outcome: 'success' }]);
    const again = await act('post', '/v1/role-bindings', platform, {
      uid: user.body.uid,
      role: 'project-owner',
      organizationId: organization.body.id,
    });
    expect({ status: again.status, entries: again.entries }).toEqual({ status: 409, entries: [] });
    const revoked = await act('delete', `/v1/role-bindings/${granted.body.id}`, platform);
    expect(revoked.status).toBe(204);
    expect(revoked.entries).toEqual([{ ...actor, action: 'roles.revoke', target: granted.body.id, outcome: 'success' }]);

    const merged = await act('post', '/v1/unified-users/merge', platform, { survivorUid: user.body.uid, mergedUid: other.body.uid });
    expect(merged.status).toBe(201);
    expect(merged.entries).toEqual([{ ...actor, action: 'users.merge', target: merged.body.id, outcome: 'success' }]);
    const unmerged = await act('post', `/v1/merges/${merged.body.id}/unmerge`, platform, {});
    expect(unmerged.status).toBe(200);
    expect(unmerged.entries).toEqual([{ ...actor, action: 'users.unmerge', target: merged.body.id, outcome: 'success' }]);

    const secondApp = await act('post', '/v1/apps', partnerKey, {
      name: 'Second',
      type: 'Traditional',
      redirectUris: ['https://second.example/cb'],
    });
    const secondRegistry = secondApp.body.app.registryId as string;
    const linked = await act('post', `/v1/unified-users/${user.body.uid}/app-links`, platform, { registryId: secondRegistry });
    expect(linked.status).toBe(201);
    expect(linked.entries).toEqual([{ ...actor, action: 'users.link-app', target: user.body.uid, outcome: 'success' }]);
    const unlinked = await act('delete', `/v1/unified-users/${user.body.uid}/app-links/${secondRegistry}`, platform);
    expect(unlinked.status).toBe(204);
    expect(unlinked.entries).toEqual([{ ...actor, action: 'users.unlink-app', target: user.body.uid, outcome: 'success' }]);

    const revokedKey = await act('post', `/v1/keys/${key.body.key.id}/revoke`, platform, {});
    expect(revokedKey.status).toBe(200);
    expect(revokedKey.entries).toEqual([{ ...actor, action: 'keys.revoke', target: key.body.key.id, outcome: 'success' }]);
  });

  it('records the waitlist: the anonymous request by the connection’s address (not a forwarded header), its approval and rejection by the key', async () => {
    const platform = identity.platformKey;
    const ask = () => ({
      organizationName: `Acme ${randomBytes(4).toString('hex')}`,
      contactName: 'Ada',
      contactEmail: 'ada@acme.example',
      useCase: 'settlements',
    });
    const requestId = `audit-${randomBytes(8).toString('hex')}`;
    const submitted = await request(identity.server)
      .post('/v1/waitlist')
      .set('X-Request-Id', requestId)
      .set('X-Forwarded-For', '203.0.113.66')
      .send(ask())
      .expect(201);
    const [asked] = (await identity.dataSource.query(
      `SELECT actor_kind AS "actorKind", actor_id AS "actorId", action, target FROM audit_entry WHERE request_id = $1`,
      [requestId],
    )) as Entry[];
    expect(asked).toMatchObject({ actorKind: 'anonymous', action: 'waitlist.request', target: submitted.body.id });
    expect(asked!.actorId).not.toContain('203.0.113.66');

    const approved = await act('post', `/v1/waitlist/${submitted.body.id}/approve`, platform, {});
    expect(approved.status).toBe(200);
    expect(approved.entries.map((entry) => [entry.action, entry.target])).toEqual([
      ['organizations.create', approved.body.issued.key.organizationId],
      ['keys.create', approved.body.issued.key.id],
      ['waitlist.approve', submitted.body.id],
    ]);
    expect(approved.entries.every((entry) => entry.actorId === prefixOf(platform) && entry.actorKind === 'platform_key')).toBe(true);

    const second = (await request(identity.server).post('/v1/waitlist').send(ask()).expect(201)).body;
    const rejected = await act('post', `/v1/waitlist/${second.id}/reject`, platform, { reason: 'not yet' });
    expect(rejected.status).toBe(200);
    expect(rejected.entries).toEqual([{ ...by(platform), action: 'waitlist.reject', target: second.id, outcome: 'success' }]);
  });

  it("records each write of an app key's routes once (users, sync, password links, apps, webhooks), and none for a refused one", async () => {
    const partner = await identity.newAppKey({ maxApps: 10 });
    const key = partner.secret;
    const actor = by(key);
    // An organization's key reads its own organization's entries and no others (audit-organizations.e2e).
    const own = await request(identity.server).get('/v1/audit').set(bearer(key)).expect(200);
    expect(own.body.items.map((entry: { organizationId: string }) => entry.organizationId)).toEqual(
      own.body.items.map(() => partner.organizationId),
    );
    const app = await act('post', '/v1/apps', key, { name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] });
    expect(app.status).toBe(201);
    expect(app.entries).toEqual([{ ...actor, action: 'apps.register', target: app.body.app.registryId, outcome: 'success' }]);
    const registryId = app.body.app.registryId as string;

    const created = await act('post', '/v1/users', key, person(registryId, 'u-1'));
    expect(created.status).toBe(201);
    expect(created.entries).toEqual([{ ...actor, action: 'users.create', target: created.body.id, outcome: 'success' }]);
    const duplicate = await act('post', '/v1/users', key, { ...person(registryId, 'u-1') });
    expect({ status: duplicate.status, entries: duplicate.entries }).toEqual({ status: 409, entries: [] });
    const updated = await act('patch', `/v1/users/${created.body.id}`, key, { displayName: 'Renamed' });
    expect(updated.status).toBe(200);
    expect(updated.entries).toEqual([{ ...actor, action: 'users.update', target: created.body.id, outcome: 'success' }]);
    const link = await act('post', `/v1/users/${created.body.id}/password-setup`, key, {});
    expect(link.status).toBe(201);
    expect(link.entries).toEqual([{ ...actor, action: 'users.password-setup', target: created.body.uid, outcome: 'success' }]);

    const synced = await act('post', '/v1/sync', key, { registryId, records: [record('u-2')] });
    expect(synced.status).toBe(200);
    expect(synced.entries.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['users.create', 'success'],
      ['sync.apply', 'success'],
    ]);
    const atomic = await act('post', '/v1/sync', key, { registryId, atomic: true, records: [record('u-3'), { externalId: 'x' }] });
    expect(atomic.status).toBe(200);
    expect(atomic.entries).toEqual([{ ...actor, action: 'sync.apply', target: registryId, outcome: 'failure' }]);

    const deleted = await act('delete', `/v1/users/${created.body.id}`, key);
    expect(deleted.status).toBe(204);
    expect(deleted.entries).toEqual([{ ...actor, action: 'users.delete', target: created.body.id, outcome: 'success' }]);

    const endpoint = await act('post', '/v1/webhook-endpoints', key, { url: 'http://127.0.0.1:9/hook', eventTypes: ['users.synced'] });
    expect(endpoint.status).toBe(201);
    const endpointId = endpoint.body.endpoint.id as string;
    expect(endpoint.entries).toEqual([{ ...actor, action: 'webhooks.create', target: endpointId, outcome: 'success' }]);
    const changed = await act('patch', `/v1/webhook-endpoints/${endpointId}`, key, { description: 'payouts' });
    expect(changed.status).toBe(200);
    expect(changed.entries).toEqual([{ ...actor, action: 'webhooks.update', target: endpointId, outcome: 'success' }]);
    const rotated = await act('post', `/v1/webhook-endpoints/${endpointId}/rotate-secret`, key, {});
    expect(rotated.status).toBe(200);
    expect(rotated.entries).toEqual([{ ...actor, action: 'webhooks.rotate-secret', target: endpointId, outcome: 'success' }]);
    const tested = await act('post', `/v1/webhook-endpoints/${endpointId}/test`, key, {});
    expect(tested.status).toBe(202);
    expect(tested.entries).toEqual([{ ...actor, action: 'webhooks.test', target: endpointId, outcome: 'success' }]);
    await identity.app.get(WebhookDispatcher).drain();
    const [delivery] = (await identity.dataSource.query('SELECT id FROM webhook_delivery WHERE endpoint_id = $1', [endpointId])) as {
      id: string;
    }[];
    const replayed = await act('post', `/v1/webhook-endpoints/${endpointId}/deliveries/${delivery!.id}/replay`, key, {});
    expect(replayed.status).toBe(202);
    expect(replayed.entries).toEqual([{ ...actor, action: 'webhooks.replay', target: delivery!.id, outcome: 'success' }]);
    const recovered = await act('post', `/v1/webhook-endpoints/${endpointId}/recover`, key, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(recovered.status).toBe(202);
    expect(recovered.entries).toEqual([{ ...actor, action: 'webhooks.recover', target: endpointId, outcome: 'success' }]);
    const removed = await act('delete', `/v1/webhook-endpoints/${endpointId}`, key);
    expect(removed.status).toBe(204);
    expect(removed.entries).toEqual([{ ...actor, action: 'webhooks.delete', target: endpointId, outcome: 'success' }]);
    const testedGone = await act('post', `/v1/webhook-endpoints/${endpointId}/test`, key, {});
    expect({ status: testedGone.status, entries: testedGone.entries }).toEqual({ status: 404, entries: [] });

    const appDeleted = await act('delete', `/v1/apps/${registryId}`, key);
    expect(appDeleted.status).toBe(204);
    expect(appDeleted.entries).toEqual([{ ...actor, action: 'apps.delete', target: registryId, outcome: 'success' }]);
  });

  it("names the endpoint's organization in every webhook entry, so a platform key's removal still says whose it was once the endpoint is purged", async () => {
    const partner = await identity.newAppKey();
    const platform = identity.platformKey;
    const since = new Date(Date.now() - 1000).toISOString();
    const endpoint = await act('post', '/v1/webhook-endpoints', partner.secret, {
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['users.synced'],
    });
    const endpointId = endpoint.body.endpoint.id as string;
    const writes = [
      await act('patch', `/v1/webhook-endpoints/${endpointId}`, platform, { description: 'by the operator' }),
      await act('post', `/v1/webhook-endpoints/${endpointId}/rotate-secret`, platform, {}),
      await act('post', `/v1/webhook-endpoints/${endpointId}/test`, platform, {}),
      await act('post', `/v1/webhook-endpoints/${endpointId}/recover`, platform, { since: new Date(Date.now() - 60_000).toISOString() }),
      await act('delete', `/v1/webhook-endpoints/${endpointId}`, platform),
    ];
    expect(writes.map((write) => [write.status, write.entries.map((entry) => entry.action)])).toEqual([
      [200, ['webhooks.update']],
      [200, ['webhooks.rotate-secret']],
      [202, ['webhooks.test']],
      [202, ['webhooks.recover']],
      [204, ['webhooks.delete']],
    ]);
    await identity.app.get(WebhookDispatcher).drain(new Date(Date.now() + (REMOVED_ENDPOINT_AUDIT_DAYS + 1) * 86_400_000));
    expect(await identity.dataSource.query('SELECT 1 FROM webhook_endpoint WHERE id = $1', [endpointId])).toEqual([]);

    const read = await request(identity.server)
      .get('/v1/audit')
      .query({ actor: prefixOf(platform), from: since, limit: 100 })
      .set(bearer(platform))
      .expect(200);
    const ofEndpoint = (read.body.items as { action: string; target: string; detail: Record<string, unknown> }[]).filter(
      (entry) => entry.target === endpointId,
    );
    expect(ofEndpoint.map((entry) => [entry.action, entry.detail['organizationId']])).toEqual([
      ['webhooks.update', partner.organizationId],
      ['webhooks.rotate-secret', partner.organizationId],
      ['webhooks.test', partner.organizationId],
      ['webhooks.recover', partner.organizationId],
      ['webhooks.delete', partner.organizationId],
    ]);
  });

  it('records an endpoint the dispatcher disables (410 Gone) once, as the system’s doing, naming its organization', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const partner = await identity.newAppKey({ maxApps: 10 });
      const created = await act('post', '/v1/webhook-endpoints', partner.secret, {
        url: receiver.url('/gone'),
        eventTypes: ['app.registered'],
      });
      const endpointId = created.body.endpoint.id as string;
      receiver.expect('/gone', created.body.secret as string);
      receiver.answer('/gone', 410);
      await act('post', '/v1/apps', partner.secret, { name: 'One', type: 'Traditional', redirectUris: ['https://one.example/cb'] });
      await act('post', '/v1/apps', partner.secret, { name: 'Two', type: 'Traditional', redirectUris: ['https://two.example/cb'] });
      await identity.app.get(WebhookDispatcher).drain();
      await identity.app.get(WebhookDispatcher).drain();
      const [endpoint] = await identity.dataSource.query('SELECT enabled FROM webhook_endpoint WHERE id = $1', [endpointId]);
      expect(endpoint).toEqual({ enabled: false });
      const entries = await identity.dataSource.query(
        `SELECT actor_kind AS "actorKind", actor_id AS "actorId", outcome, detail->>'organizationId' AS "organizationId"
           FROM audit_entry WHERE action = 'webhooks.disable' AND target = $1`,
        [endpointId],
      );
      expect(entries).toEqual([{ actorKind: 'system', actorId: 'webhooks', outcome: 'success', organizationId: partner.organizationId }]);
    } finally {
      await receiver.close();
    }
  });

  it("records an agent's key's writes as the agent's, with its supervisor", async () => {
    const partner = await identity.newAppKey({ maxApps: 10 });
    const { registryId } = await identity.newRegistry(partner.secret);
    const supervisor = (await act('post', '/v1/users', partner.secret, person(registryId, 's-1'))).body;
    const agent = await act('post', '/v1/keys', identity.platformKey, {
      name: 'agent',
      class: 'app',
      organizationId: partner.organizationId,
      agentSupervisorId: supervisor.uid,
      allowedRegistryIds: [registryId],
    });
    expect(agent.status).toBe(201);
    const created = await act('post', '/v1/users', agent.body.secret, person(registryId, 'a-1'));
    expect(created.status).toBe(201);
    expect(created.entries).toEqual([
      {
        actorKind: 'agent',
        actorId: prefixOf(agent.body.secret),
        supervisor: supervisor.uid,
        action: 'users.create',
        target: created.body.id,
        outcome: 'success',
      },
    ]);
  });
});

describe("identity's audit trail: an entry commits with its change or not at all", () => {
  beforeAll(() =>
    identity.dataSource.query(
      `CREATE FUNCTION test_change_fails_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'fails at commit'; END $$`,
    ),
  );

  /** Performs a request while every `event` on `table` fails its transaction at commit: 500, and no entry of the request stays. */
  async function failingAtCommit(
    table: string,
    event: 'INSERT' | 'UPDATE',
    method: Method,
    path: string,
    key: string | null,
    body?: object,
  ) {
    await identity.dataSource.query(
      `CREATE CONSTRAINT TRIGGER test_change_fails_at_commit AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW EXECUTE FUNCTION test_change_fails_at_commit()`,
    );
    try {
      const { status, entries } = await act(method, path, key, body);
      return { path, status, entries };
    } finally {
      await identity.dataSource.query(`DROP TRIGGER test_change_fails_at_commit ON ${table}`);
    }
  }

  it('leaves no entry of a key, organization, app, webhook or waitlist write whose change fails at its commit', async () => {
    const platform = identity.platformKey;
    const partner = await identity.newAppKey({ maxApps: 10 });
    const { registryId } = await identity.newRegistry(partner.secret);
    const endpoint = (
      await act('post', '/v1/webhook-endpoints', partner.secret, { url: 'http://127.0.0.1:9/hook', eventTypes: ['users.synced'] })
    ).body.endpoint.id as string;
    const waiting = (
      await request(identity.server)
        .post('/v1/waitlist')
        .send({
          organizationName: `Acme ${randomBytes(4).toString('hex')}`,
          contactName: 'Ada',
          contactEmail: 'ada@acme.example',
          useCase: 'x',
        })
        .expect(201)
    ).body.id as string;
    const user = (await act('post', '/v1/users', partner.secret, person(registryId, 'c-1'))).body;
    const app = { name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] };

    const attempts = [
      await failingAtCommit('organization', 'INSERT', 'post', '/v1/organizations', platform, { name: 'Never' }),
      await failingAtCommit('api_key', 'INSERT', 'post', '/v1/keys', platform, {
        name: 'never',
        class: 'app',
        organizationId: partner.organizationId,
      }),
      await failingAtCommit('api_key_secret', 'INSERT', 'post', `/v1/keys/${partner.key.id}/rotate`, platform, {}),
      await failingAtCommit('api_key', 'UPDATE', 'post', `/v1/keys/${partner.key.id}/revoke`, platform, {}),
      await failingAtCommit('registered_app', 'INSERT', 'post', '/v1/apps', partner.secret, app),
      await failingAtCommit('registered_app', 'UPDATE', 'delete', `/v1/apps/${registryId}`, partner.secret),
      await failingAtCommit('password_setup', 'INSERT', 'post', `/v1/users/${user.id}/password-setup`, partner.secret, {}),
      await failingAtCommit('webhook_endpoint', 'INSERT', 'post', '/v1/webhook-endpoints', partner.secret, {
        url: 'http://127.0.0.1:9/other',
        eventTypes: ['users.synced'],
      }),
      await failingAtCommit('webhook_endpoint', 'UPDATE', 'patch', `/v1/webhook-endpoints/${endpoint}`, partner.secret, {
        description: 'x',
      }),
      await failingAtCommit('webhook_endpoint', 'UPDATE', 'post', `/v1/webhook-endpoints/${endpoint}/rotate-secret`, partner.secret, {}),
      await failingAtCommit('event_outbox', 'INSERT', 'post', `/v1/webhook-endpoints/${endpoint}/test`, partner.secret, {}),
      await failingAtCommit('webhook_endpoint', 'UPDATE', 'delete', `/v1/webhook-endpoints/${endpoint}`, partner.secret),
      await failingAtCommit('waitlist_request', 'UPDATE', 'post', `/v1/waitlist/${waiting}/approve`, platform, {}),
      await failingAtCommit('waitlist_request', 'UPDATE', 'post', `/v1/waitlist/${waiting}/reject`, platform, { reason: 'no' }),
    ];
    expect(attempts.filter((attempt) => attempt.status !== 500 || attempt.entries.length > 0)).toEqual([]);
  });
});
