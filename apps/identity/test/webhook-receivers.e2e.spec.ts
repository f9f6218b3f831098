import request from 'supertest';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_SECONDS, nextAttemptAt } from '../src/partners/webhooks/retry-schedule';
import { IdentityConfig } from '../src/platform/config/identity.config';
import { PartnerEventsService } from '../src/platform/outbox/events.service';
import { REMOVED_ENDPOINT_AUDIT_DAYS, WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { retryAfter } from '../src/partners/webhooks/webhook-transport';
import { NOT_SENT_WHILE_DISABLED } from '../src/partners/webhooks/webhooks.repository';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// What a partner's receiver meets (issue 27): the retry schedule counted from the end of an attempt,
// a receiver's own signals (410 Gone, Retry-After), removing an endpoint, and recovering after an outage.
// The dispatcher runs only when a test drives it, at times the test chooses; a request times out after 3 s.

const TIMEOUT_MS = 3000;
const noJitter = () => 0.5;
const seconds = (count: number) => count * 1000;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const platform = () => bearer(identity.platformKey);
let identity: RunningIdentity;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
let pathCount = 0;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startIdentity({
    WEBHOOK_DISPATCHER: 'off',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000',
  });
  dispatcher = identity.app.get(WebhookDispatcher);
});
afterAll(async () => {
  await identity.close();
  await receiver.close();
});

type AppKey = Awaited<ReturnType<RunningIdentity['newAppKey']>>;

async function partnerWithEndpoint(eventTypes: string[], key?: AppKey) {
  const owner = key ?? (await identity.newAppKey({ maxApps: 10 }));
  const path = `/receiver-${++pathCount}`;
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set(bearer(owner.secret))
    .send({ url: receiver.url(path), eventTypes })
    .expect(201);
  receiver.expect(path, created.body.secret);
  return { key: owner, path, id: created.body.endpoint.id as string };
}

const registerApp = (key: string) =>
  request(identity.server)
    .post('/v1/apps')
    .set(bearer(key))
    .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
    .expect(201);

interface ListedDelivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

async function deliveries(endpointId: string, key: string, status?: string): Promise<ListedDelivery[]> {
  const listed = await request(identity.server)
    .get(`/v1/webhook-endpoints/${endpointId}/deliveries${status ? `?status=${status}` : ''}`)
    .set(bearer(key))
    .expect(200);
  return listed.body.items;
}

async function until(probe: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !probe();) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const gap = (delivery: ListedDelivery) => Date.parse(delivery.nextAttemptAt!) - Date.parse(delivery.lastAttemptAt!);

describe('the retry schedule', () => {
  it('waits the delay after a timed-out attempt from its end, not from its start', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.hold(partner.path);
    await registerApp(partner.key.secret);
    const start = new Date(Date.now() + 1000);
    await dispatcher.drain(start, noJitter);

    const [timedOut] = await deliveries(partner.id, partner.key.secret);
    expect(timedOut).toMatchObject({ status: 'pending', attempts: 1, error: 'no answer within the time limit' });
    // The attempt lasted at least the timeout; the 5 s delay follows it.
    expect(gap(timedOut!)).toBeGreaterThanOrEqual(TIMEOUT_MS + seconds(5));
    await dispatcher.drain(new Date(start.getTime() + TIMEOUT_MS + seconds(5) - 500), noJitter);
    expect(receiver.at(partner.path)).toHaveLength(1);

    receiver.release(partner.path);
    await dispatcher.drain(new Date(start.getTime() + TIMEOUT_MS + seconds(5) + seconds(3)), noJitter);
    expect(receiver.at(partner.path)).toHaveLength(2);
    const [delivered] = await deliveries(partner.id, partner.key.secret);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, nextAttemptAt: null });
  });

  it('never lists a pending delivery as due before its last attempt, also while that attempt is on the wire', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 500);
    await registerApp(partner.key.secret);
    const start = new Date(Date.now() + 1000);
    await dispatcher.drain(start, noJitter);
    const [failed] = await deliveries(partner.id, partner.key.secret);
    expect(gap(failed!)).toBeGreaterThanOrEqual(seconds(5));

    receiver.hold(partner.path);
    receiver.answer(partner.path, 204);
    const draining = dispatcher.drain(new Date(start.getTime() + seconds(30)), noJitter);
    await until(() => receiver.at(partner.path).length === 2, 'the second attempt on the wire');
    const [onTheWire] = await deliveries(partner.id, partner.key.secret);
    expect(onTheWire).toMatchObject({ status: 'pending', attempts: 2 });
    expect(gap(onTheWire!)).toBeGreaterThanOrEqual(0);
    receiver.release(partner.path);
    await draining;
    expect((await deliveries(partner.id, partner.key.secret))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});

describe('the order of one resource', () => {
  it("holds a resource's later events while an earlier one waits for its retry, then sends them in order", async () => {
    const partner = await partnerWithEndpoint(['app.registered', 'app.deleted']);
    receiver.answer(partner.path, 500);
    const app = await registerApp(partner.key.secret);
    const start = new Date();
    await dispatcher.drain(start, noJitter);
    await request(identity.server).delete(`/v1/apps/${app.body.app.registryId}`).set(bearer(partner.key.secret)).expect(204);
    await dispatcher.drain(start, noJitter);
    expect(receiver.at(partner.path).map((entry) => entry.event.type)).toEqual(['app.registered']);

    receiver.answer(partner.path, 204);
    await dispatcher.drain(new Date(start.getTime() + seconds(60)), noJitter);
    expect(receiver.at(partner.path).map((entry) => entry.event.type)).toEqual(['app.registered', 'app.registered', 'app.deleted']);
  });
  it('fans out every event of an outbox longer than one batch, none marked done before it was fanned out', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const events = identity.app.get(PartnerEventsService);
    await identity.dataSource.transaction(async (manager) => {
      for (let index = 0; index < 205; index++)
        await events.record(manager, {
          type: 'app.registered',
          organizationId: partner.key.organizationId,
          resource: `app:batch-${index}`,
          actor: { kind: 'system', id: 'test' },
          data: { registryId: `batch-${index}`, name: 'Portal', type: 'Traditional', clientId: `client-${index}`, redirectUris: [] },
        });
    });
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(205);
  });
});

describe("a receiver's own signals", () => {
  it('counts a delivery it cannot even send (a signing secret that does not open) as a failed attempt, up to failed and the endpoint disabled', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    // Sealed under another key, as every secret is after OIDC_CLIENT_SECRET_KEY changed without the old one.
    await identity.dataSource.query(`UPDATE webhook_endpoint SET secret_sealed = decode(repeat('00', 64), 'hex') WHERE id = $1`, [
      partner.id,
    ]);
    await registerApp(partner.key.secret);
    const start = new Date();
    await dispatcher.drain(start, noJitter);
    const [first] = await deliveries(partner.id, partner.key.secret);
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: null,
      error: expect.stringMatching(/^not sent: the signing secret/),
    });
    expect(gap(first!)).toBeGreaterThanOrEqual(seconds(5));
    expect(gap(first!)).toBeLessThan(seconds(60));

    for (let day = 1; day <= 12; day++) await dispatcher.drain(new Date(start.getTime() + day * seconds(86_400)), noJitter);
    const [last] = await deliveries(partner.id, partner.key.secret);
    expect(last).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    const endpoint = await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).expect(200);
    expect(endpoint.body).toMatchObject({ enabled: false, status: 'failing_disabled', disabledReason: 'deliveries kept failing' });
    expect(receiver.at(partner.path)).toEqual([]);
  });

  it('disables the endpoint at once on 410 Gone, tells the organization why, and sends nothing more until it is enabled again', async () => {
    const watcher = await partnerWithEndpoint(['endpoint.disabled']);
    const gone = await partnerWithEndpoint(['app.registered'], watcher.key);
    receiver.answer(gone.path, 410, 'this hook was retired');
    await registerApp(watcher.key.secret);
    const beforeAttempt = Date.now();
    await dispatcher.drain();
    const afterAttempt = Date.now();

    const [delivery] = await deliveries(gone.id, watcher.key.secret);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: 410, nextAttemptAt: null });
    const endpoint = await request(identity.server).get(`/v1/webhook-endpoints/${gone.id}`).set(bearer(watcher.key.secret)).expect(200);
    expect(endpoint.body).toMatchObject({ enabled: false, status: 'failing_disabled', disabledReason: 'the endpoint answered 410 Gone' });
    // When it stopped, read by the partner beside why: a partner with no other endpoint learns it here.
    expect(Date.parse(endpoint.body.disabledAt)).toBeGreaterThanOrEqual(beforeAttempt);
    expect(Date.parse(endpoint.body.disabledAt)).toBeLessThanOrEqual(afterAttempt);
    expect(receiver.at(watcher.path).map((entry) => entry.event)).toEqual([
      expect.objectContaining({
        type: 'endpoint.disabled',
        data: { endpointId: gone.id, url: receiver.url(gone.path), reason: 'the endpoint answered 410 Gone', lastDeliveryId: delivery!.id },
      }),
    ]);

    await registerApp(watcher.key.secret);
    await dispatcher.drain(new Date(Date.now() + seconds(86400 * 4)));
    expect(receiver.at(gone.path)).toHaveLength(1);

    receiver.answer(gone.path, 204);
    const enabled = await request(identity.server)
      .patch(`/v1/webhook-endpoints/${gone.id}`)
      .set(bearer(watcher.key.secret))
      .send({ enabled: true })
      .expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, status: 'enabled', disabledReason: null, disabledAt: null });
    await registerApp(watcher.key.secret);
    await dispatcher.drain();
    expect(receiver.at(gone.path)).toHaveLength(2);
    // Disabled again by the partner, it is their choice now, not the failures of before.
    const beforePause = Date.now();
    const paused = await request(identity.server)
      .patch(`/v1/webhook-endpoints/${gone.id}`)
      .set(bearer(watcher.key.secret))
      .send({ enabled: false })
      .expect(200);
    expect(paused.body).toMatchObject({ enabled: false, status: 'disabled', disabledReason: null });
    expect(Date.parse(paused.body.disabledAt)).toBeGreaterThanOrEqual(beforePause - 1000);
    // Asked again, it keeps the time it stopped.
    const again = await request(identity.server)
      .patch(`/v1/webhook-endpoints/${gone.id}`)
      .set(bearer(watcher.key.secret))
      .send({ enabled: false })
      .expect(200);
    expect(again.body.disabledAt).toBe(paused.body.disabledAt);
  });

  it('tells the organization once when two attempts on the wire at once both answer 410', async () => {
    const watcher = await partnerWithEndpoint(['endpoint.disabled']);
    const gone = await partnerWithEndpoint(['app.registered'], watcher.key);
    receiver.answer(gone.path, 410);
    receiver.hold(gone.path);
    await registerApp(watcher.key.secret);
    await registerApp(watcher.key.secret);
    const start = new Date();
    await dispatcher.dispatchOnce(start, noJitter);
    await until(() => receiver.at(gone.path).length === 2, 'both attempts on the wire');
    receiver.release(gone.path);
    await dispatcher.drain(start, noJitter);

    expect((await deliveries(gone.id, watcher.key.secret)).map((delivery) => delivery.status)).toEqual(['failed', 'failed']);
    expect(receiver.at(watcher.path).map((entry) => entry.event.type)).toEqual(['endpoint.disabled']);
  });

  it('refuses a test event and a replay to a disabled endpoint with a 409, and writes nothing', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    const [delivered] = await deliveries(partner.id, partner.key.secret);
    await request(identity.server)
      .patch(`/v1/webhook-endpoints/${partner.id}`)
      .set(bearer(partner.key.secret))
      .send({ enabled: false })
      .expect(200);
    const endpoint = `/v1/webhook-endpoints/${partner.id}`;
    for (const path of [`${endpoint}/test`, `${endpoint}/deliveries/${delivered!.id}/replay`]) {
      const refused = await request(identity.server).post(path).set(bearer(partner.key.secret)).expect(409);
      expect(refused.body.domainCode).toBe('webhooks.endpoint_not_enabled');
    }
    const tests = await identity.dataSource.query(`SELECT 1 FROM event_outbox WHERE type = 'webhook.test' AND resource = $1`, [
      `endpoint:${partner.id}`,
    ]);
    expect(tests).toEqual([]);
    expect(await deliveries(partner.id, partner.key.secret)).toEqual([delivered]);
  });

  it('sends nothing while an endpoint is disabled: enabled again, it gets only what comes after (what came before waits for recover)', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const patch = (enabled: boolean) =>
      request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).send({ enabled }).expect(200);
    await patch(false);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    await patch(true);
    const after = await registerApp(partner.key.secret);
    await dispatcher.drain(new Date(Date.now() + seconds(86400)));

    expect((await deliveries(partner.id, partner.key.secret)).map((delivery) => [delivery.status, delivery.attempts])).toEqual([
      ['failed', 0],
      ['delivered', 1],
    ]);
    expect(receiver.at(partner.path).map((entry) => entry.event.data)).toEqual([
      expect.objectContaining({ registryId: after.body.app.registryId }),
    ]);
  });

  it.each([429, 503])('waits at least the Retry-After of a %i, and at most the cap however long it asks', async (status) => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, status, 'slow down', { 'retry-after': '120' });
    await registerApp(partner.key.secret);
    const start = new Date(Date.now() + 1000);
    await dispatcher.drain(start, noJitter);
    const [first] = await deliveries(partner.id, partner.key.secret);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, responseStatus: status });
    expect(gap(first!)).toBeGreaterThanOrEqual(seconds(120));
    // Without it, the schedule's first delay (5 s) would have brought the retry long before.
    await dispatcher.drain(new Date(start.getTime() + seconds(60)), noJitter);
    expect(receiver.at(partner.path)).toHaveLength(1);

    receiver.answer(partner.path, status, 'down for a week', { 'retry-after': String(7 * 86400) });
    const second = new Date(start.getTime() + seconds(125));
    await dispatcher.drain(second, noJitter);
    expect(receiver.at(partner.path)).toHaveLength(2);
    const [capped] = await deliveries(partner.id, partner.key.secret);
    // The schedule's second delay is 300 s; the receiver's wish is honoured up to the cap.
    expect(gap(capped!)).toBeGreaterThanOrEqual(seconds(MAX_RETRY_AFTER_SECONDS));
    expect(gap(capped!)).toBeLessThan(seconds(MAX_RETRY_AFTER_SECONDS + 5));
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores what does not parse', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfter('120', now)).toBe(120);
    expect(retryAfter(' 7 ', now)).toBe(7);
    expect(retryAfter('Thu, 26 Nov 2026 12:02:30 GMT', now)).toBe(150);
    expect(retryAfter('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfter(['30', '60'], now)).toBe(30);
    for (const unreadable of [undefined, '', 'soon', '-5', '1.5']) expect(retryAfter(unreadable, now)).toBeNull();
  });

  it('keeps the schedule on a 500 that carries Retry-After', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 500, 'oops', { 'retry-after': '3600' });
    await registerApp(partner.key.secret);
    await dispatcher.drain(new Date(Date.now() + 1000), noJitter);
    const [failed] = await deliveries(partner.id, partner.key.secret);
    expect(gap(failed!)).toBeLessThan(seconds(10));
  });

  it("takes a receiver's Retry-After as a floor under the schedule: a shorter one brings no attempt forward", () => {
    const endedAt = new Date('2026-01-01T00:00:00Z');
    for (const [attempts, asked] of [
      [1, 1],
      [3, 60],
      [9, 3599],
    ] as const) {
      const scheduled = nextAttemptAt(attempts, endedAt, noJitter)!;
      expect([attempts, asked, nextAttemptAt(attempts, endedAt, noJitter, asked)]).toEqual([attempts, asked, scheduled]);
    }
    expect(nextAttemptAt(1, endedAt, noJitter, 60)).toEqual(new Date(endedAt.getTime() + seconds(60)));
  });
});

const leaseMs = () => identity.app.get(IdentityConfig).WEBHOOK_LEASE_MS;
/** Ends the endpoint's leases by the database's clock, the one leases run on. */
const endLeases = (endpointId: string) =>
  identity.dataSource.query(
    `UPDATE webhook_delivery SET leased_until = clock_timestamp() - interval '1 millisecond' WHERE endpoint_id = $1 AND lease_token IS NOT NULL`,
    [endpointId],
  );

describe('an attempt whose lease was taken over', () => {
  it('neither records its answer nor stops the endpoint on it, when another attempt of the delivery succeeded meanwhile', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    await registerApp(partner.key.secret);
    receiver.answer(partner.path, 410);
    receiver.hold(partner.path);
    const start = new Date();
    await dispatcher.dispatchOnce(start, noJitter);
    await until(() => receiver.at(partner.path).length === 1, 'the first attempt on the wire');
    receiver.answer(partner.path, 204);
    // The first attempt's lease has run out: a dispatcher takes the delivery up again (as after a crash).
    await endLeases(partner.id);
    const afterLease = new Date(start.getTime() + leaseMs() + seconds(1));
    await dispatcher.dispatchOnce(afterLease, noJitter);
    await until(() => receiver.at(partner.path).length === 2, 'the second attempt on the wire');
    receiver.release(partner.path);
    await dispatcher.drain(afterLease, noJitter);

    const [delivery] = await deliveries(partner.id, partner.key.secret);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 204 });
    const endpoint = await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).expect(200);
    expect(endpoint.body).toMatchObject({ enabled: true, status: 'enabled', disabledReason: null });
    const disabled = await identity.dataSource.query(`SELECT 1 FROM event_outbox WHERE type = 'endpoint.disabled' AND resource = $1`, [
      `endpoint:${partner.id}`,
    ]);
    expect(disabled).toEqual([]);
  });

  it("is never claimed again while on the wire by a replica whose clock runs ahead of the database's or behind it", async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.hold(partner.path);
    const attempts = async () => (await deliveries(partner.id, partner.key.secret)).map((delivery) => delivery.attempts);

    await registerApp(partner.key.secret);
    await dispatcher.dispatchOnce(new Date(), noJitter);
    await until(() => receiver.at(partner.path).length === 1, 'the first attempt on the wire');
    // A replica running ahead by more than the lease finds the delivery still leased.
    await dispatcher.dispatchOnce(new Date(Date.now() + leaseMs() + seconds(1)), noJitter);
    expect(await attempts()).toEqual([1]);

    // A replica running behind by more than the lease claims the next one; its lease still holds for the others.
    await registerApp(partner.key.secret);
    await dispatcher.dispatchOnce(new Date(Date.now() - leaseMs() - seconds(1)), noJitter);
    await until(() => receiver.at(partner.path).length === 2, 'the second attempt on the wire');
    await dispatcher.dispatchOnce(new Date(), noJitter);
    expect(await attempts()).toEqual([1, 1]);

    receiver.release(partner.path);
    await dispatcher.drain(new Date(), noJitter);
    expect(receiver.at(partner.path)).toHaveLength(2);
  });
});

describe('sharing the dispatcher', () => {
  const leased = async (endpointId: string) =>
    (
      await identity.dataSource.query(
        'SELECT count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1 AND lease_token IS NOT NULL',
        [endpointId],
      )
    )[0].n as number;

  it('sends to an endpoint whose last attempt failed one request at a time, and to a healthy one several at once', async () => {
    const failing = await partnerWithEndpoint(['app.registered']);
    receiver.answer(failing.path, 500);
    for (let index = 0; index < 3; index++) await registerApp(failing.key.secret);
    const start = new Date(Date.now() + 1000);
    await dispatcher.drain(start, noJitter);
    expect(receiver.at(failing.path)).toHaveLength(3);

    receiver.hold(failing.path);
    receiver.answer(failing.path, 204);
    const later = new Date(start.getTime() + seconds(60));
    await dispatcher.dispatchOnce(later, noJitter);
    await dispatcher.dispatchOnce(later, noJitter);
    expect(await leased(failing.id)).toBe(1);
    receiver.release(failing.path);
    await dispatcher.drain(later, noJitter);
    expect((await deliveries(failing.id, failing.key.secret, 'delivered')).length).toBe(3);

    const healthy = await partnerWithEndpoint(['app.registered']);
    receiver.hold(healthy.path);
    for (let index = 0; index < 3; index++) await registerApp(healthy.key.secret);
    await dispatcher.dispatchOnce(later, noJitter);
    expect(await leased(healthy.id)).toBe(3);
    receiver.release(healthy.path);
    await dispatcher.drain(later, noJitter);
  });
});

describe('removing an endpoint', () => {
  it("stops deliveries, drops the pending ones, hides it from the organization, and keeps its history for the platform's audit", async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const other = await identity.newAppKey();
    receiver.answer(partner.path, 503);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    const [pending] = await deliveries(partner.id, partner.key.secret);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });

    await request(identity.server).delete(`/v1/webhook-endpoints/${partner.id}`).set(bearer(other.secret)).expect(404);
    expect((await deliveries(partner.id, partner.key.secret))[0]).toMatchObject({ status: 'pending' });
    await request(identity.server).delete(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).expect(204);

    await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).expect(404);
    await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}/deliveries`).set(bearer(partner.key.secret)).expect(404);
    await request(identity.server).delete(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).expect(404);
    await request(identity.server)
      .patch(`/v1/webhook-endpoints/${partner.id}`)
      .set(bearer(partner.key.secret))
      .send({ enabled: true })
      .expect(404);
    const own = await request(identity.server).get('/v1/webhook-endpoints').set(bearer(partner.key.secret)).expect(200);
    expect(own.body.items).toEqual([]);

    receiver.answer(partner.path, 204);
    await registerApp(partner.key.secret);
    await dispatcher.drain(new Date(Date.now() + seconds(86400)));
    expect(receiver.at(partner.path)).toHaveLength(1);

    const seen = await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(platform()).expect(200);
    expect(seen.body).toMatchObject({ status: 'deleted', enabled: false });
    expect(Date.parse(seen.body.deletedAt)).toBeLessThanOrEqual(Date.now());
    const history = await deliveries(partner.id, identity.platformKey);
    expect(history).toEqual([
      expect.objectContaining({ id: pending!.id, status: 'dropped', attempts: 1, responseStatus: 503, nextAttemptAt: null }),
    ]);
    await request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(platform()).send({ enabled: true }).expect(404);
  });

  it('lets the platform remove any endpoint, and forgets removed ones, with their deliveries, after the audit period', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 204);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    await request(identity.server).delete(`/v1/webhook-endpoints/${partner.id}`).set(platform()).expect(204);
    const day = seconds(86400);
    await dispatcher.drain(new Date(Date.now() + (REMOVED_ENDPOINT_AUDIT_DAYS - 1) * day));
    await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(platform()).expect(200);
    // A live endpoint's ended deliveries go after DELIVERY_HISTORY_DAYS; a removed one's stay for the whole audit period.
    expect((await deliveries(partner.id, identity.platformKey)).map((delivery) => delivery.status)).toEqual(['delivered']);
    await dispatcher.drain(new Date(Date.now() + (REMOVED_ENDPOINT_AUDIT_DAYS + 1) * day));
    await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(platform()).expect(404);
    expect(await identity.dataSource.query('SELECT 1 FROM webhook_delivery WHERE endpoint_id = $1', [partner.id])).toEqual([]);
  });
});

describe('recovering after an outage', () => {
  it('sends every failed delivery since a time again, under its own webhook-id and in order per resource, and none from before', async () => {
    const partner = await partnerWithEndpoint(['app.registered', 'app.deleted']);
    const key = partner.key.secret;
    const enable = () =>
      request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(key)).send({ enabled: true }).expect(200);
    receiver.answer(partner.path, 410);
    await registerApp(key);
    await dispatcher.drain();
    const [before] = await deliveries(partner.id, key, 'failed');
    await enable();

    const since = new Date(Date.parse((await deliveries(partner.id, key))[0]!.lastAttemptAt!) + 1);
    const first = await registerApp(key);
    await request(identity.server).delete(`/v1/apps/${first.body.app.registryId}`).set(bearer(key)).expect(204);
    const second = await registerApp(key);
    // A failing endpoint gets one request at a time: each 410 fails one delivery and disables the endpoint again.
    await dispatcher.drain();
    await enable();
    await dispatcher.drain();
    const failed = await deliveries(partner.id, key, 'failed');
    // The one from before `since`, then the first app's two events (the head of its resource each time).
    expect(failed.map((delivery) => delivery.eventType).sort()).toEqual(['app.deleted', 'app.registered', 'app.registered']);
    const sent = receiver.at(partner.path).length;

    receiver.answer(partner.path, 204);
    const disabled = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(key))
      .send({ since: since.toISOString() })
      .expect(409);
    expect(disabled.body.domainCode).toBe('webhooks.endpoint_not_enabled');
    await enable();
    const recovered = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(key))
      .send({ since: since.toISOString() })
      .expect(202);
    expect(recovered.body).toEqual({ queued: 2, broughtForward: 0 });
    await dispatcher.drain();

    const again = receiver.at(partner.path).slice(sent);
    const registryOf = (entry: (typeof again)[number]) => entry.event.data['registryId'];
    expect(again.filter((entry) => registryOf(entry) === first.body.app.registryId).map((entry) => entry.event.type)).toEqual([
      'app.registered',
      'app.deleted',
    ]);
    expect(again.filter((entry) => registryOf(entry) === second.body.app.registryId).map((entry) => entry.event.type)).toEqual([
      'app.registered',
    ]);
    const recoveredIds = failed.map((delivery) => delivery.id).filter((id) => id !== before!.id);
    const againIds = again.map((entry) => entry.webhookId);
    expect(againIds).toEqual(expect.arrayContaining(recoveredIds));
    expect(againIds).not.toContain(before!.id);
    expect(await deliveries(partner.id, key, 'failed')).toEqual([expect.objectContaining({ id: before!.id })]);
    expect(receiver.unverified).toEqual([]);
  });

  it('keeps the events of the time an endpoint was disabled, sends none on enabling, and sends them all on recover, in order', async () => {
    const partner = await partnerWithEndpoint(['app.registered', 'app.deleted', 'endpoint.disabled']);
    const key = partner.key.secret;
    const since = new Date();
    receiver.answer(partner.path, 410);
    await registerApp(key);
    await dispatcher.drain();
    const stopped = await request(identity.server).get(`/v1/webhook-endpoints/${partner.id}`).set(bearer(key)).expect(200);
    expect(stopped.body).toMatchObject({ status: 'failing_disabled' });

    // While it is stopped: an app registered and deleted, another registered.
    const first = await registerApp(key);
    await request(identity.server).delete(`/v1/apps/${first.body.app.registryId}`).set(bearer(key)).expect(204);
    const second = await registerApp(key);
    await dispatcher.drain(new Date(Date.now() + seconds(86_400)));
    expect(receiver.at(partner.path)).toHaveLength(1);
    const kept = (await deliveries(partner.id, key)).slice(1);
    // Its own endpoint.disabled (it subscribes to it), then the three events, each kept, never attempted.
    expect(kept.map((delivery) => delivery.eventType)).toEqual(['endpoint.disabled', 'app.registered', 'app.deleted', 'app.registered']);
    for (const delivery of kept) {
      expect(delivery).toMatchObject({ status: 'failed', attempts: 0, lastAttemptAt: null, nextAttemptAt: null, responseStatus: null });
      expect(delivery.error).toBe(NOT_SENT_WHILE_DISABLED);
    }

    receiver.answer(partner.path, 204);
    await request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(key)).send({ enabled: true }).expect(200);
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(1);

    // Paused by the partner itself, the same: an event of that time is kept for recovery.
    await request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(key)).send({ enabled: false }).expect(200);
    const third = await registerApp(key);
    await dispatcher.drain();
    await request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(key)).send({ enabled: true }).expect(200);
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(1);

    const recovered = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(key))
      .send({ since: since.toISOString() })
      .expect(202);
    // The first app's 410'd delivery, and the five kept while the endpoint was stopped.
    expect(recovered.body).toEqual({ queued: 6, broughtForward: 0 });
    await dispatcher.drain();
    const sent = receiver.at(partner.path).slice(1);
    const registryOf = (entry: (typeof sent)[number]) => entry.event.data['registryId'];
    expect(sent.filter((entry) => registryOf(entry) === first.body.app.registryId).map((entry) => entry.event.type)).toEqual([
      'app.registered',
      'app.deleted',
    ]);
    for (const app of [second, third]) expect(sent.filter((entry) => registryOf(entry) === app.body.app.registryId)).toHaveLength(1);
    expect(sent.filter((entry) => entry.event.type === 'endpoint.disabled')).toEqual([
      expect.objectContaining({ event: expect.objectContaining({ data: expect.objectContaining({ endpointId: partner.id }) }) }),
    ]);
    expect(sent).toHaveLength(6);
    expect(await deliveries(partner.id, key, 'failed')).toEqual([]);
    expect(receiver.unverified).toEqual([]);
  });

  it('brings forward deliveries waiting for a retry', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 503);
    const since = new Date();
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    receiver.answer(partner.path, 204);
    const recovered = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(platform())
      .send({ since: since.toISOString() })
      .expect(202);
    expect(recovered.body).toEqual({ queued: 0, broughtForward: 1 });
    await dispatcher.drain();
    expect((await deliveries(partner.id, partner.key.secret))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it.each([
    [{}, 'since must be an RFC 3339 date-time with a time zone'],
    [{ since: 'yesterday' }, 'since must be an RFC 3339 date-time with a time zone'],
    // Each of these read as some time by new Date: a day, a time in the server's zone, nothing at all, 2 March.
    [{ since: new Date().toISOString().slice(0, 10) }, 'since must be an RFC 3339 date-time with a time zone'],
    [{ since: new Date(Date.now() - 3_600_000).toISOString().slice(0, 16) }, 'since must be an RFC 3339 date-time with a time zone'],
    [{ since: `${new Date().getUTCFullYear()}-W01` }, 'since must be an RFC 3339 date-time with a time zone'],
    [{ since: `${new Date().getUTCFullYear()}-02-30T00:00:00Z` }, 'since must be a real calendar date and time'],
    [{ since: new Date(Date.now() + 3_600_000).toISOString() }, 'since must not be in the future'],
    [{ since: new Date(Date.now() - 31 * 86_400_000).toISOString() }, 'since must be within the last 30 days'],
  ])('refuses %j with a 400 naming since, and queues nothing', async (body, message) => {
    const partner = await partnerWithEndpoint(['app.registered']);
    receiver.answer(partner.path, 410);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    await request(identity.server).patch(`/v1/webhook-endpoints/${partner.id}`).set(bearer(partner.key.secret)).send({ enabled: true });
    const refused = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(partner.key.secret))
      .send(body)
      .expect(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'since' });
    expect(refused.body.errors[0].message).toContain(message);
    expect(await deliveries(partner.id, partner.key.secret, 'failed')).toHaveLength(1);
  });

  it('sends nothing again that was delivered', async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    await registerApp(partner.key.secret);
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(1);
    const recovered = await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(partner.key.secret))
      .send({ since: new Date(Date.now() - seconds(3600)).toISOString() })
      .expect(202);
    expect(recovered.body).toEqual({ queued: 0, broughtForward: 0 });
    await dispatcher.drain();
    expect(receiver.at(partner.path)).toHaveLength(1);
    expect(await deliveries(partner.id, partner.key.secret)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });

  it("answers 404 to another organization's key", async () => {
    const partner = await partnerWithEndpoint(['app.registered']);
    const other = await identity.newAppKey();
    await request(identity.server)
      .post(`/v1/webhook-endpoints/${partner.id}/recover`)
      .set(bearer(other.secret))
      .send({ since: new Date().toISOString() })
      .expect(404);
  });
});

describe('the OpenAPI document', () => {
  it('describes removal, recovery, the new statuses and what a receiver may answer', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(body.paths['/v1/webhook-endpoints/{endpointId}'].delete).toBeDefined();
    expect(body.paths['/v1/webhook-endpoints/{endpointId}/recover'].post.requestBody).toBeDefined();
    const schemas = body.components.schemas;
    expect(schemas.RecoverWebhookDeliveriesRequestDto.required).toEqual(['since']);
    expect(schemas.WebhookDeliveryDto.properties.status.enum).toContain('dropped');
    expect(schemas.WebhookEndpointDto.properties.status.enum).toContain('deleted');
    expect(Object.keys(body.webhooks['role.granted'].post.responses).sort()).toEqual(['2XX', '410', '429', '503']);
    expect(JSON.stringify(body)).toContain('webhooks.recover_since_invalid');
  });
});
