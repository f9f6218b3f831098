import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { DELIVERY_EVENT_TYPES, IDENTITY_EVENT_TYPES } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { IdentityConfig } from '../src/platform/config/identity.config';
import { AuditService } from '../src/platform/audit-trail/audit.service';
import { PartnerEventsService } from '../src/platform/outbox/events.service';
import { ClientSecretSealer } from '../src/platform/secrets/client-secret-sealer';
import { WebhooksRepository } from '../src/partners/webhooks/webhooks.repository';
import { RETRY_DELAYS_SECONDS } from '../src/partners/webhooks/retry-schedule';
import { WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { KEPT_RESPONSE_CHARS, MAX_REQUEST_BYTES, WebhookTransport } from '../src/partners/webhooks/webhook-transport';
import { startIdentity, type RunningIdentity } from './support/identity-app';
import { WebhookReceiver } from '@stdreg/server-kit/testing';

let identity: RunningIdentity;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);
const noJitter = () => 0.5;
let pathCount = 0;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true', RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000' });
  dispatcher = identity.app.get(WebhookDispatcher);
});
afterAll(async () => {
  await identity.close();
  await receiver.close();
});

/** A partner (app key of a fresh organization) with an endpoint on the receiver for these event types. */
type AppKey = Awaited<ReturnType<RunningIdentity['newAppKey']>>;

async function partnerWithEndpoint(eventTypes: string[], options: { key?: AppKey } = {}) {
  const key = options.key ?? (await identity.newAppKey({ maxApps: 10 }));
  const path = `/hook-${++pathCount}`;
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set(bearer(key.secret))
    .send({ url: receiver.url(path), eventTypes, description: 'payouts' })
    .expect(201);
  receiver.expect(path, created.body.secret);
  return { key, path, endpoint: created.body.endpoint, secret: created.body.secret as string };
}

const registerApp = (key: string, name = 'Portal') =>
  request(identity.server)
    .post('/v1/apps')
    .set(bearer(key))
    .send({ name, type: 'Traditional', redirectUris: ['https://portal.example/cb'] });

/** The deliveries of a partner's endpoint, as its own key reads them. */
const deliveriesOf = (partner: { key: AppKey; endpoint: { id: string } }) =>
  request(identity.server).get(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries`).set(bearer(partner.key.secret)).expect(200);

const countRows = async (table: string) => (await identity.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

describe('webhook endpoints', () => {
  it('shows the signing secret once, and delivers an event signed so that standardwebhooks verifies it', async () => {
    const partner = await partnerWithEndpoint(['app.registered', 'app.deleted']);
    expect(partner.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(partner.endpoint).toMatchObject({
      organizationId: partner.key.organizationId,
      enabled: true,
      status: 'enabled',
      description: 'payouts',
    });
    const read = await request(identity.server)
      .get(`/v1/webhook-endpoints/${partner.endpoint.id}`)
      .set(bearer(partner.key.secret))
      .expect(200);
    expect(JSON.stringify(read.body)).not.toContain(partner.secret.slice(6));
    const app = await registerApp(partner.key.secret).expect(201);
    await request(identity.server).delete(`/v1/apps/${app.body.app.registryId}`).set(bearer(partner.key.secret)).expect(204);

    await dispatcher.drain();

    const got = receiver.at(partner.path);
    expect(got.map((entry) => entry.event.type)).toEqual(['app.registered', 'app.deleted']);
    expect(got[0]!.event).toMatchObject({
      type: 'app.registered',
      organizationId: partner.key.organizationId,
      actor: { kind: 'key', id: partner.key.key.prefix },
      version: 1,
      data: { registryId: app.body.app.registryId, name: 'Portal', type: 'Traditional', clientId: app.body.app.clientId },
    });
    expect(got[0]!.body).not.toContain(app.body.clientSecret);
    expect(got[0]!.body).not.toContain(partner.key.secret);
    expect(receiver.unverified).toEqual([]);
  });

  it("lets an operator's platform key see every organization's endpoints, and an app key only its own", async () => {
    const first = await partnerWithEndpoint(['key.revoked']);
    const second = await partnerWithEndpoint(['key.revoked']);
    const all = await request(identity.server).get('/v1/webhook-endpoints?limit=100').set(platform()).expect(200);
    const ids = all.body.items.map((item: { id: string }) => item.id);
    expect(ids).toEqual(expect.arrayContaining([first.endpoint.id, second.endpoint.id]));
    const own = await request(identity.server).get('/v1/webhook-endpoints').set(bearer(first.key.secret)).expect(200);
    expect(own.body.items.map((item: { id: string }) => item.id)).toEqual([first.endpoint.id]);
    await request(identity.server).get(`/v1/webhook-endpoints/${second.endpoint.id}`).set(bearer(first.key.secret)).expect(404);
  });

  it('refuses an overlap outside 0 to 604800 seconds and an unknown delivery status, naming the field and changing nothing', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    for (const overlapSeconds of [604801, -1]) {
      const refused = await request(identity.server)
        .post(`/v1/webhook-endpoints/${partner.endpoint.id}/rotate-secret`)
        .set(bearer(partner.key.secret))
        .send({ overlapSeconds })
        .expect(400);
      expect(refused.body.errors[0].field).toBe('overlapSeconds');
    }
    const stored = await request(identity.server)
      .get(`/v1/webhook-endpoints/${partner.endpoint.id}`)
      .set(bearer(partner.key.secret))
      .expect(200);
    expect(stored.body.previousSecretExpiresAt).toBeNull();
    const status = await request(identity.server)
      .get(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries?status=lost`)
      .set(bearer(partner.key.secret))
      .expect(400);
    expect(status.body.errors[0].field).toBe('status');
  });

  it('signs with both secrets during a rotation overlap, each verifying on its own', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const rotated = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/rotate-secret`)
      .set(bearer(partner.key.secret))
      .send({ overlapSeconds: 3600 })
      .expect(200);
    expect(rotated.body.secret).not.toBe(partner.secret);
    expect(Date.parse(rotated.body.endpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now());
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain();
    const [delivered] = receiver.at(partner.path);
    expect(delivered!.signature.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': delivered!.webhookId, 'webhook-timestamp': '', 'webhook-signature': delivered!.signature };
    const timestamp = Math.floor(Date.now() / 1000);
    for (const secret of [partner.secret, rotated.body.secret]) {
      // The timestamp the receiver saw is within a second or two of now; verify against the signature the endpoint got.
      const verifies = [timestamp - 2, timestamp - 1, timestamp, timestamp + 1].some((at) => {
        try {
          new Webhook(secret).verify(delivered!.body, { ...headers, 'webhook-timestamp': String(at) });
          return true;
        } catch {
          return false;
        }
      });
      expect(verifies).toBe(true);
    }
  });

  it('stops signing with the previous secret once its overlap has ended', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const rotated = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/rotate-secret`)
      .set(bearer(partner.key.secret))
      .send({ overlapSeconds: 60 })
      .expect(200);
    receiver.expect(partner.path, rotated.body.secret);
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain(new Date(Date.now() + 120_000));
    const [delivered] = receiver.at(partner.path);
    expect(delivered!.signature.split(' ')).toHaveLength(1);
    const headers = { 'webhook-id': delivered!.webhookId, 'webhook-signature': delivered!.signature };
    const timestamp = Math.floor(Date.now() / 1000);
    const verifiesWith = (secret: string) =>
      [timestamp - 2, timestamp - 1, timestamp, timestamp + 1].some((at) => {
        try {
          new Webhook(secret).verify(delivered!.body, { ...headers, 'webhook-timestamp': String(at) });
          return true;
        } catch {
          return false;
        }
      });
    expect(verifiesWith(rotated.body.secret)).toBe(true);
    expect(verifiesWith(partner.secret)).toBe(false);
  });

  it.each([
    [{ url: 'http://partner.example/hook' }, 'url', 'must use https'],
    [{ url: 'https://10.0.0.7/hook' }, 'url', 'is not an address webhooks may reach'],
    [{ url: 'https://169.254.169.254/latest/meta-data' }, 'url', 'is not an address webhooks may reach'],
    [{ url: 'https://[fe80::1]/hook' }, 'url', 'is not an address webhooks may reach'],
    [{ url: 'not a url' }, 'url', 'must be an absolute URL'],
    [{ eventTypes: ['settlement_run.paid'] }, 'eventTypes', 'each event type must be one of'],
    [{ eventTypes: [] }, 'eventTypes', 'at least one'],
    [{ eventTypes: ['app.registered', 'app.registered'] }, 'eventTypes', "All eventTypes's elements must be unique"],
    [{ eventTypes: ['webhook.test'] }, 'eventTypes', 'each event type must be one of'],
    [{ url: `https://partner.example/${'h'.repeat(2000)}` }, 'url', 'shorter than or equal to 2000 characters'],
    [{ description: 'd'.repeat(501) }, 'description', 'shorter than or equal to 500 characters'],
    [{ enabled: 'yes' }, 'enabled', 'enabled must be a boolean value'],
    [{ organizationId: 'not-a-uuid' }, 'organizationId', 'organizationId must be a UUID'],
    [{ surprise: true }, 'surprise', ''],
  ])('refuses %j with a 400 naming the field, and creates nothing', async (change, field, message) => {
    const key = await identity.newAppKey();
    const before = await countRows('webhook_endpoint');
    const response = await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(bearer(key.secret))
      .send({ url: 'https://partner.example/hook', eventTypes: ['app.registered'], ...change })
      .expect(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body.errors[0].field).toBe(field);
    expect(response.body.errors[0].message).toContain(message);
    expect(await countRows('webhook_endpoint')).toBe(before);
  });

  it('refuses an app key registering for another organization (403), and a platform key naming none (400)', async () => {
    const key = await identity.newAppKey();
    const other = await identity.newAppKey();
    const body = { url: 'https://partner.example/hook', eventTypes: ['app.registered'] };
    const refused = await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(bearer(key.secret))
      .send({ ...body, organizationId: other.organizationId })
      .expect(403);
    expect(refused.body.domainCode).toBe('webhooks.organization_not_own');
    const missing = await request(identity.server).post('/v1/webhook-endpoints').set(platform()).send(body).expect(400);
    expect(missing.body.domainCode).toBe('webhooks.organization_required');
  });

  it('refuses a platform key registering for an organization that does not exist, and stores nothing', async () => {
    const before = await countRows('webhook_endpoint');
    const unknown = await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(platform())
      .send({
        url: 'https://partner.example/hook',
        eventTypes: ['app.registered'],
        organizationId: '0196a0c4-0000-7000-8000-00000000abcd',
      });
    expect([unknown.status, unknown.body.domainCode]).toEqual([422, 'webhooks.organization_unknown']);
    expect(await countRows('webhook_endpoint')).toBe(before);
  });

  it('refuses an organization a seventeenth endpoint (409) and stores nothing, until it removes one; another organization is not held back', async () => {
    const key = await identity.newAppKey();
    const create = () =>
      request(identity.server)
        .post('/v1/webhook-endpoints')
        .set(bearer(key.secret))
        .send({ url: 'https://partner.example/hook', eventTypes: ['app.registered'] });
    const liveOfOrganization = async () =>
      (
        await identity.dataSource.query(
          'SELECT count(*)::int AS n FROM webhook_endpoint WHERE organization_id = $1 AND deleted_at IS NULL',
          [key.organizationId],
        )
      )[0].n as number;
    const created: string[] = [];
    for (let i = 0; i < 16; i++) created.push((await create().expect(201)).body.endpoint.id);
    const refused = await create().expect(409);
    expect(refused.body).toMatchObject({ code: 'conflict', domainCode: 'webhooks.limit_reached' });
    expect(refused.body.detail).toContain('16');
    // The platform key is held to the same bound for the organization.
    await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set(platform())
      .send({ url: 'https://partner.example/hook', eventTypes: ['app.registered'], organizationId: key.organizationId })
      .expect(409);
    expect(await liveOfOrganization()).toBe(16);

    await request(identity.server).delete(`/v1/webhook-endpoints/${created[0]}`).set(bearer(key.secret)).expect(204);
    await create().expect(201);
    await create().expect(409);
    expect(await liveOfOrganization()).toBe(16);
    await partnerWithEndpoint(['app.registered']);
  });

  it('lets concurrent registrations of one organization past its bound by none', async () => {
    const key = await identity.newAppKey();
    for (let i = 0; i < 14; i++) {
      await request(identity.server)
        .post('/v1/webhook-endpoints')
        .set(bearer(key.secret))
        .send({ url: 'https://partner.example/hook', eventTypes: ['app.registered'] })
        .expect(201);
    }
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(identity.server)
          .post('/v1/webhook-endpoints')
          .set(bearer(key.secret))
          .send({ url: 'https://partner.example/hook', eventTypes: ['app.registered'] }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    const rows = await identity.dataSource.query('SELECT count(*)::int AS n FROM webhook_endpoint WHERE organization_id = $1', [
      key.organizationId,
    ]);
    expect(rows[0].n).toBe(16);
  });

  it('keeps the previous secret signing for the overlap asked for, in seconds', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const before = Date.now();
    const rotated = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/rotate-secret`)
      .set(bearer(partner.key.secret))
      .send({ overlapSeconds: 3600 })
      .expect(200);
    const expiresAt = Date.parse(rotated.body.endpoint.previousSecretExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600 * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600 * 1000);
  });
});

describe('the outbox', () => {
  it('sends nothing for a rolled-back change', async () => {
    const partner = await partnerWithEndpoint(['app.deleted']);
    const events = identity.app.get(PartnerEventsService);
    await expect(
      identity.dataSource.transaction(async (manager) => {
        await events.record(manager, {
          type: 'app.deleted',
          organizationId: partner.key.organizationId,
          resource: 'registry:reg_rolledback0000000000',
          actor: { kind: 'system', id: 'test' },
          data: { registryId: 'reg_rolledback0000000000' },
        });
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toEqual([]);
  });

  it('sends nothing for a refused write: an app over its limit, an app key revoking a key or granting a role', async () => {
    const key = await identity.newAppKey({ maxApps: 1 });
    const partner = await partnerWithEndpoint(['app.registered', 'key.revoked', 'role.granted'], { key });
    await registerApp(key.secret).expect(201);
    await dispatcher.drain();
    const before = receiver.at(partner.path).length;
    await registerApp(key.secret).expect(409);
    await request(identity.server).post(`/v1/keys/${key.key.id}/revoke`).set(bearer(key.secret)).expect(403);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set(bearer(key.secret))
      .send({ uid: '0196a0c4-0000-7000-8000-000000000000', role: 'investor', organizationId: key.organizationId })
      .expect(403);
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(before);
  });

  it("writes identity's events with their changes: sync summary, roles, key revocation, merge and unmerge", async () => {
    const partner = await partnerWithEndpoint([
      'users.synced',
      'role.granted',
      'role.revoked',
      'key.revoked',
      'user.merged',
      'user.unmerged',
    ]);
    const registry = await identity.newRegistry(partner.key.secret);
    const synced = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(partner.key.secret))
      .send({
        registryId: registry.registryId,
        records: [
          { externalId: 'a', email: 'ada@partner.example', emailVerified: false, displayName: 'Ada', locale: 'en' },
          { externalId: 'b', email: 'bo@partner.example', emailVerified: false, displayName: 'Bo', locale: 'en' },
        ],
      })
      .expect(200);
    const [ada, bo] = synced.body.results.map((result: { uid: string }) => result.uid) as [string, string];
    const granted = await request(identity.server)
      .post('/v1/role-bindings')
      .set(platform())
      .send({ uid: ada, role: 'investor', organizationId: partner.key.organizationId })
      .expect(201);
    await request(identity.server).delete(`/v1/role-bindings/${granted.body.id}`).set(platform()).expect(204);
    const merge = await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform())
      .send({ survivorUid: ada, mergedUid: bo })
      .expect(201);
    await request(identity.server).post(`/v1/merges/${merge.body.id}/unmerge`).set(platform()).expect(200);
    const extra = await request(identity.server)
      .post('/v1/keys')
      .set(platform())
      .send({ name: 'second', class: 'app', organizationId: partner.key.organizationId })
      .expect(201);
    await request(identity.server).post(`/v1/keys/${extra.body.key.id}/revoke`).set(platform()).expect(200);

    await dispatcher.drain();

    const received = receiver.at(partner.path).map((entry) => entry.event);
    const byType = (type: string) => received.filter((event) => event.type === type);
    const got = ['users.synced', 'role.granted', 'role.revoked', 'user.merged', 'user.unmerged', 'key.revoked'].map(
      (type) => byType(type)[0]!,
    );
    expect(received).toHaveLength(6);
    // One person's events (resource user:<uid>) arrive in the order they happened; other resources' may interleave.
    expect(received.map((event) => event.type).filter((type) => type.startsWith('role.') || type.startsWith('user.'))).toEqual([
      'role.granted',
      'role.revoked',
      'user.merged',
      'user.unmerged',
    ]);
    expect(got[0]!.data).toEqual({
      registryId: registry.registryId,
      applied: true,
      records: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      rejected: 0,
    });
    expect(got[1]!.data).toEqual({ roleBindingId: granted.body.id, uid: ada, role: 'investor' });
    expect(got[3]!.data).toEqual({ mergeId: merge.body.id, survivorUid: ada, mergedUid: bo });
    expect(got[5]!.data).toEqual({ keyId: extra.body.key.id, keyPrefix: extra.body.key.prefix });
    expect(got.every((event) => event.organizationId === partner.key.organizationId)).toBe(true);
    const bodies = receiver
      .at(partner.path)
      .map((entry) => entry.body)
      .join('\n');
    expect(bodies).not.toContain('partner.example');
    expect(bodies).not.toContain(extra.body.secret);
  });
});

describe('delivery', () => {
  it('retries a failing endpoint on its schedule, with the same webhook-id, then disables it and tells the organization', async () => {
    const watcher = await partnerWithEndpoint(['endpoint.disabled']);
    const failing = await partnerWithEndpoint(['app.registered'], { key: watcher.key });
    receiver.answer(failing.path, 503, 'down for maintenance');
    await registerApp(watcher.key.secret).expect(201);
    let now = new Date(Date.now() + 1000);
    await dispatcher.drain(now, noJitter);
    expect(receiver.at(failing.path)).toHaveLength(1);
    for (const [index, delay] of RETRY_DELAYS_SECONDS.entries()) {
      await dispatcher.drain(new Date(now.getTime() + delay * 1000 - 1000), noJitter);
      expect(receiver.at(failing.path)).toHaveLength(index + 1);
      // The delay counts from the end of the failed attempt, a moment after `now`.
      now = new Date(now.getTime() + delay * 1000 + 3000);
      await dispatcher.drain(now, noJitter);
      expect(receiver.at(failing.path)).toHaveLength(index + 2);
    }
    const attempts = receiver.at(failing.path);
    expect(new Set(attempts.map((entry) => entry.webhookId)).size).toBe(1);
    const endpoint = await request(identity.server)
      .get(`/v1/webhook-endpoints/${failing.endpoint.id}`)
      .set(bearer(watcher.key.secret))
      .expect(200);
    expect(endpoint.body).toMatchObject({ enabled: false, status: 'failing_disabled' });
    const deliveries = await request(identity.server)
      .get(`/v1/webhook-endpoints/${failing.endpoint.id}/deliveries`)
      .set(bearer(watcher.key.secret))
      .expect(200);
    expect(deliveries.body.items).toEqual([
      expect.objectContaining({
        id: attempts[0]!.webhookId,
        status: 'failed',
        attempts: RETRY_DELAYS_SECONDS.length + 1,
        responseStatus: 503,
        responseBody: 'down for maintenance',
        nextAttemptAt: null,
      }),
    ]);
    const told = receiver.at(watcher.path).map((entry) => entry.event);
    expect(told).toEqual([
      expect.objectContaining({ type: 'endpoint.disabled', data: expect.objectContaining({ endpointId: failing.endpoint.id }) }),
    ]);
    const totalHours = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0) / 3600;
    expect(totalHours).toBeGreaterThan(60);
    expect(totalHours).toBeLessThan(84);
  });

  it('replays a delivery with its webhook-id, sends a test event, and lists both', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain();
    const [first] = receiver.at(partner.path);
    await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries/${first!.webhookId}/replay`)
      .set(bearer(partner.key.secret))
      .expect(202);
    await request(identity.server).post(`/v1/webhook-endpoints/${partner.endpoint.id}/test`).set(bearer(partner.key.secret)).expect(202);
    await dispatcher.drain();
    const got = receiver.at(partner.path);
    expect(got.map((entry) => [entry.webhookId === first!.webhookId, entry.event.type])).toEqual([
      [true, 'app.registered'],
      [true, 'app.registered'],
      [false, 'webhook.test'],
    ]);
    const listed = await request(identity.server)
      .get(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries?status=delivered`)
      .set(bearer(partner.key.secret))
      .expect(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: first!.webhookId, eventType: 'app.registered', status: 'delivered', attempts: 2, responseStatus: 204 }),
      expect.objectContaining({ eventType: 'webhook.test', status: 'delivered', attempts: 1, responseStatus: 204 }),
    ]);
    await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries/0196a0c4-0000-7000-8000-000000000000/replay`)
      .set(bearer(partner.key.secret))
      .expect(404);
  });

  it("sends an organization's events to its own endpoints only, and a test event to the one endpoint it was asked for", async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const sibling = await partnerWithEndpoint(['app.registered'], { key: partner.key });
    const stranger = await partnerWithEndpoint(['app.registered']);
    await registerApp(partner.key.secret).expect(201);
    await request(identity.server).post(`/v1/webhook-endpoints/${partner.endpoint.id}/test`).set(bearer(partner.key.secret)).expect(202);
    await dispatcher.drain();
    expect(receiver.at(partner.path).map((entry) => entry.event.type)).toEqual(['app.registered', 'webhook.test']);
    expect(receiver.at(sibling.path).map((entry) => entry.event.type)).toEqual(['app.registered']);
    expect(receiver.at(stranger.path)).toEqual([]);
  });

  it("replays no delivery of another endpoint, and none of another organization's", async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const stranger = await partnerWithEndpoint(['app.registered']);
    await registerApp(stranger.key.secret).expect(201);
    await dispatcher.drain();
    const [theirs] = receiver.at(stranger.path);
    await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.endpoint.id}/deliveries/${theirs!.webhookId}/replay`)
      .set(bearer(partner.key.secret))
      .expect(404);
    await dispatcher.drain();
    expect(receiver.at(stranger.path)).toHaveLength(1);
  });

  it('signs with the time of sending, so an event that waited (handed over late, retried) still verifies', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    await identity.dataSource.transaction((manager) =>
      identity.app.get(PartnerEventsService).record(
        manager,
        {
          type: 'webhook.test',
          organizationId: partner.key.organizationId,
          resource: `endpoint:${partner.endpoint.id}`,
          actor: { kind: 'system', id: 'webhooks' },
          data: { endpointId: partner.endpoint.id, message: 'An event from an hour ago.' },
        },
        new Date(Date.now() - 3_600_000),
      ),
    );
    await dispatcher.drain();
    expect(receiver.unverified.filter((entry) => entry.path === partner.path)).toEqual([]);
    expect(receiver.at(partner.path).map((entry) => entry.event.type)).toEqual(['webhook.test']);
  });

  it('reads no more of an answer than it keeps a bound on, however long the answer goes on', async () => {
    const endless = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const more = () => {
        if (response.destroyed || response.writableEnded) return;
        response.write('y'.repeat(16 * 1024), () => setImmediate(more));
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const transport = new WebhookTransport({ allowLoopback: true, allowPrivate: false, timeoutMs: 3000 });
    const sent = await transport.send(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook`, '{}', {});
    expect(sent).toMatchObject({ ok: true, status: 200, error: null });
    expect(sent.body).toHaveLength(KEPT_RESPONSE_CHARS);
    await transport.close();
    endless.closeAllConnections();
    await new Promise<void>((resolve) => endless.close(() => resolve()));
  });

  it("counts an answer by its status though its body is cut short or still coming at the time limit: a 2xx delivered, a 410's and a 503's status and Retry-After kept", async () => {
    const trickling = createHttpServer((incoming, response) => {
      incoming.resume();
      const [status, ending] = incoming.url!.slice(1).split('-') as [string, 'cut' | 'slow'];
      response.writeHead(Number(status), { 'retry-after': '120', 'content-length': '1000' });
      response.write('started');
      if (ending === 'cut') setImmediate(() => response.socket?.destroy());
      else {
        const more = setInterval(() => response.write('.'), 100);
        response.on('close', () => clearInterval(more));
      }
    });
    await new Promise<void>((resolve) => trickling.listen(0, '127.0.0.1', resolve));
    const transport = new WebhookTransport({ allowLoopback: true, allowPrivate: false, timeoutMs: 1000 });
    const send = (path: string) => transport.send(`http://127.0.0.1:${(trickling.address() as AddressInfo).port}/${path}`, '{}', {});
    for (const ending of ['cut', 'slow']) {
      expect(await send(`200-${ending}`)).toMatchObject({ ok: true, status: 200, error: null, body: expect.stringMatching(/^started/) });
      expect(await send(`410-${ending}`)).toMatchObject({ ok: false, status: 410, error: 'answered 410' });
      expect(await send(`503-${ending}`)).toMatchObject({ ok: false, status: 503, retryAfterSeconds: 120 });
    }
    await transport.close();
    trickling.closeAllConnections();
    await new Promise<void>((resolve) => trickling.close(() => resolve()));
  });

  it('follows no redirect, and keeps only the start of a long answer', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 307, 'x'.repeat(5000), { location: receiver.url('/elsewhere') });
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain();
    const deliveries = await deliveriesOf(partner);
    expect(deliveries.body.items[0]).toMatchObject({ status: 'pending', responseStatus: 307, attempts: 1 });
    expect(deliveries.body.items[0].responseBody).toHaveLength(KEPT_RESPONSE_CHARS);
    expect(receiver.at('/elsewhere')).toEqual([]);
    expect(receiver.unverified.filter((entry) => entry.path === '/elsewhere')).toEqual([]);
  });

  it('records a delivery whose answer holds a NUL, keeping the answer with the NUL replaced', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 200, 'ok\u0000done');
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain();
    const deliveries = await deliveriesOf(partner);
    expect(deliveries.body.items).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1, responseStatus: 200, responseBody: 'ok\ufffddone' }),
    ]);
    expect(receiver.at(partner.path)).toHaveLength(1);
  });

  it('keeps the first characters of a long answer, one written as two UTF-16 units counted once and never split', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 200, `${'x'.repeat(KEPT_RESPONSE_CHARS - 1)}\u{1f600}${'y'.repeat(100)}`);
    await registerApp(partner.key.secret).expect(201);
    await dispatcher.drain();
    const deliveries = await deliveriesOf(partner);
    expect(deliveries.body.items[0].responseBody).toBe(`${'x'.repeat(KEPT_RESPONSE_CHARS - 1)}\u{1f600}`);
  });

  it('keeps the order of one resource, and two dispatchers working at once send no event twice', async () => {
    const partner = await partnerWithEndpoint(['users.synced']);
    const registries = [await identity.newRegistry(partner.key.secret), await identity.newRegistry(partner.key.secret)];
    for (let round = 0; round < 10; round++) {
      for (const registry of registries) {
        await request(identity.server)
          .post('/v1/sync')
          .set(bearer(partner.key.secret))
          .send({
            registryId: registry.registryId,
            records: [{ externalId: `u${round}`, email: `u${round}@p.example`, emailVerified: false, displayName: 'U', locale: 'en' }],
          })
          .expect(200);
      }
    }
    const second = new WebhookDispatcher(
      identity.dataSource,
      identity.app.get(WebhooksRepository),
      identity.app.get(PartnerEventsService),
      identity.app.get(AuditService),
      identity.app.get(WebhookTransport),
      identity.app.get(ClientSecretSealer),
      identity.app.get(IdentityConfig),
      identity.app.get(JsonLogger),
    );
    await Promise.all([dispatcher.drain(), second.drain(), dispatcher.drain()]);
    const got = receiver.at(partner.path);
    const ids = got.map((entry) => entry.webhookId);
    const duplicates = ids.length - new Set(ids).size;
    console.info(`two dispatchers: ${ids.length} requests for ${new Set(ids).size} deliveries, ${duplicates} duplicates`);
    expect(new Set(ids).size).toBe(20);
    expect(duplicates).toBe(0);
    for (const registry of registries) {
      const created = got
        .filter((entry) => entry.event.data['registryId'] === registry.registryId)
        .map((entry) => entry.event.data['created']);
      expect(created).toHaveLength(10);
    }
    const seqOrder = got.map((entry) => entry.event.id);
    for (const registry of registries) {
      const ofRegistry = got.filter((entry) => entry.event.data['registryId'] === registry.registryId).map((entry) => entry.event.id);
      expect(ofRegistry).toEqual([...ofRegistry].sort());
    }
    expect(seqOrder).toHaveLength(20);
  });
});

describe('where webhooks may go', () => {
  let listener: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('refuses loopback and private targets outside the test allowance, before any connection', async () => {
    const transport = new WebhookTransport({ allowLoopback: false, allowPrivate: false, timeoutMs: 2000 });
    for (const url of [
      `https://127.0.0.1:${port}/hook`,
      `http://127.0.0.1:${port}/hook`,
      `https://localhost:${port}/hook`,
      `https://[::1]:${port}/hook`,
    ]) {
      expect(await transport.refusal(url)).not.toBeNull();
      const sent = await transport.send(url, '{}', {});
      expect(sent).toMatchObject({ ok: false, status: null });
    }
    expect(await transport.refusal('https://10.1.2.3/hook')).toContain('is not an address');
    expect(connections).toBe(0);
    await transport.close();
  });

  it('refuses a name whose DNS answer changes to loopback between the check and the connection', async () => {
    let asked = 0;
    const transport = new WebhookTransport({
      allowLoopback: false,
      allowPrivate: false,
      timeoutMs: 2000,
      resolve: (_host, _options, callback) => callback(null, [{ address: ++asked === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }]),
    });
    const url = `https://rebinding.example:${port}/hook`;
    expect(await transport.refusal(url)).toBeNull();
    const sent = await transport.send(url, '{}', {});
    expect(sent.ok).toBe(false);
    expect(sent.error).toBe('rebinding.example resolves to an address that is not public, which webhooks may not reach');
    expect(asked).toBe(2);
    expect(connections).toBe(0);
    await transport.close();
  });

  it('refuses a URL carrying credentials or a fragment, at registration and when sending', async () => {
    const before = connections;
    const transport = new WebhookTransport({ allowLoopback: true, allowPrivate: false, timeoutMs: 2000 });
    for (const [url, why] of [
      [`http://partner:secret@127.0.0.1:${port}/hook`, 'must not carry credentials'],
      [`http://partner@127.0.0.1:${port}/hook`, 'must not carry credentials'],
      [`http://127.0.0.1:${port}/hook#part`, 'must not contain a fragment'],
    ] as const) {
      expect([url, await transport.refusal(url)]).toEqual([url, why]);
      const sent = await transport.send(url, '{}', {});
      expect([url, sent]).toEqual([url, { ok: false, status: null, body: null, error: why, retryAfterSeconds: null }]);
    }
    expect(connections).toBe(before);
    await transport.close();
  });

  it('sends no event of more than MAX_REQUEST_BYTES bytes (not characters), and one of exactly that many', async () => {
    const before = connections;
    const transport = new WebhookTransport({ allowLoopback: true, allowPrivate: false, timeoutMs: 2000 });
    const url = `http://127.0.0.1:${port}/hook`;
    const tooLarge = await transport.send(url, `${'é'.repeat(MAX_REQUEST_BYTES / 2)}x`, {});
    expect(tooLarge).toEqual({
      ok: false,
      status: null,
      body: null,
      error: 'the event is larger than a webhook may be',
      retryAfterSeconds: null,
    });
    expect(connections).toBe(before);
    const atTheBound = await transport.send(url, 'é'.repeat(MAX_REQUEST_BYTES / 2), {});
    expect(atTheBound.error).not.toBe('the event is larger than a webhook may be');
    expect(connections).toBe(before + 1);
    await transport.close();
  });
});

describe('the OpenAPI document', () => {
  it("lists identity's events under webhooks, and every event delivered in these tests matches its schema there", async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(Object.keys(body.webhooks).sort()).toEqual([...IDENTITY_EVENT_TYPES, ...DELIVERY_EVENT_TYPES].sort());
    expect(body.webhooks['key.revoked'].post.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(receiver.received.length).toBeGreaterThan(20);
    expect(receiver.notMatching(body)).toEqual([]);
  });
});
