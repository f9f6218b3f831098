import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { uuidv7 } from '@stdreg/server-kit';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { PartnerEventsService } from '../src/platform/outbox/events.service';
import { WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { WebhooksRepository } from '../src/partners/webhooks/webhooks.repository';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// The claim itself, with deliveries written straight into the table so that which are due, and since when,
// is the test's: partners take turns, and one partner's endpoints together hold at most its share.

let identity: RunningIdentity;
let receiver: WebhookReceiver;
let webhooks: WebhooksRepository;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true' });
  webhooks = identity.app.get(WebhooksRepository);
});
afterAll(async () => {
  await identity.close();
  await receiver.close();
});

interface Partner {
  organizationId: string;
  endpoints: string[];
}

async function partner(endpointCount: number): Promise<Partner> {
  const key = await identity.newAppKey();
  const endpoints: string[] = [];
  for (let index = 0; index < endpointCount; index++) {
    const path = `/${key.organizationId}/${index}`;
    const created = await request(identity.server)
      .post('/v1/webhook-endpoints')
      .set({ Authorization: `Bearer ${key.secret}` })
      .send({ url: receiver.url(path), eventTypes: ['role.granted'] })
      .expect(201);
    receiver.expect(path, created.body.secret);
    endpoints.push(created.body.endpoint.id);
  }
  return { organizationId: key.organizationId, endpoints };
}

/** One event of the partner's, a delivery of it due at `due` for each of its endpoints. */
async function dueDeliveries(of: Partner, due: Date): Promise<void> {
  const resource = `resource:${randomUUID()}`;
  await identity.dataSource.transaction(async (manager) => {
    await identity.app.get(PartnerEventsService).record(manager, {
      type: 'role.granted',
      organizationId: of.organizationId,
      resource,
      actor: { kind: 'system', id: 'test' },
      data: { roleBindingId: randomUUID(), uid: 'u', role: 'investor' },
    });
    const [event] = await manager.query('SELECT id, seq::text AS seq FROM event_outbox WHERE resource = $1', [resource]);
    const deliveries = of.endpoints.map((endpointId) => ({
      id: uuidv7(),
      endpointId,
      eventId: event.id,
      eventSeq: event.seq,
      eventType: 'role.granted',
      resource,
    }));
    await webhooks.insertDeliveries(manager, deliveries, due);
  });
}

const claim = (now: Date, limit: number, perOrganization: number) =>
  webhooks.claimDue(now, limit, { perEndpoint: 4, perOrganization }, randomUUID(), 60_000);

/** Sends everything claimed or due, so that the next test starts with nothing pending. */
async function sendEverything(now: Date): Promise<void> {
  await identity.dataSource.query(
    `UPDATE webhook_delivery SET lease_token = NULL, leased_until = NULL, next_attempt_at = $1 WHERE status = 'pending'`,
    [now],
  );
  await identity.app.get(WebhookDispatcher).drain(now);
  const [left] = await identity.dataSource.query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status = 'pending'`);
  expect(left.n).toBe(0);
}

it("takes turns across partners: another partner's first due delivery before a partner's second, though the first partner's are older", async () => {
  const now = new Date();
  const many = await partner(3);
  const one = await partner(1);
  await dueDeliveries(many, new Date(now.getTime() - 2_000));
  await dueDeliveries(one, new Date(now.getTime() - 1_000));

  const claimed = await claim(now, 2, 16);

  expect(claimed.map((delivery) => delivery.organizationId).sort()).toEqual([many.organizationId, one.organizationId].sort());
  await sendEverything(now);
});

it("holds one partner's endpoints together to its share of attempts on the wire, counting those already leased", async () => {
  const now = new Date();
  const many = await partner(4);
  await dueDeliveries(many, new Date(now.getTime() - 3_000));
  await dueDeliveries(many, new Date(now.getTime() - 2_000));

  const first = await claim(now, 100, 3);
  const second = await claim(now, 100, 3);

  expect(first).toHaveLength(3);
  expect(second).toEqual([]);
  await sendEverything(now);
});

it("gives a freed place to the partner with the fewest on the wire, though another partner's due deliveries are older", async () => {
  const now = new Date();
  const crowd = await partner(4);
  const other = await partner(1);
  for (const secondsAgo of [5, 4, 3]) await dueDeliveries(crowd, new Date(now.getTime() - secondsAgo * 1_000));
  const held = await claim(now, 3, 16);
  await dueDeliveries(other, new Date(now.getTime() - 1_000));

  // The crowd holds 3 and has 9 older deliveries due; the other partner holds none.
  const freed = await claim(now, 1, 16);

  expect(held.map((delivery) => delivery.organizationId)).toEqual([crowd.organizationId, crowd.organizationId, crowd.organizationId]);
  expect(freed.map((delivery) => delivery.organizationId)).toEqual([other.organizationId]);
  await sendEverything(now);
});
