// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas, each
// with its own connections, race on one database, which an embedded database's single connection cannot.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { EntityManager } from 'typeorm';
import type { PartnerEventType } from '@stdreg/contracts';
import { uuidv7 } from '@stdreg/server-kit';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { PartnerEventsService } from '../../src/platform/outbox/events.service';
import { WebhookDispatcher } from '../../src/partners/webhooks/webhook-dispatcher';
import { WebhooksRepository } from '../../src/partners/webhooks/webhooks.repository';
import { startIdentity, startReplica, type RunningIdentity } from '../support/identity-app';

/** The dispatcher's fan-out batch. */
const FAN_OUT_BATCH = 200;
/**
 * The claim race: endpoints enough that a claim's one statement runs long enough for the fan-out to commit
 * and the other claim to start inside it, and rounds enough that without the claim's lock some round
 * breaks the bound (every round of 49 in 50 did, five runs on a busy machine).
 */
const ENDPOINTS = 1000;
const ROUNDS = 10;
const PER_ENDPOINT = 1;

let identity: RunningIdentity;
let replica: NestExpressApplication;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  const env = { WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true' };
  identity = await startIdentity(env);
  replica = await startReplica(identity, env);
});
afterAll(async () => {
  await replica.close();
  await identity.close();
  await receiver.close();
});

async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function backends(condition: string): Promise<number> {
  const [row] = await identity.dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${condition}`,
  );
  return row.n;
}

async function endpoint(key: string, path: string, eventTypes: PartnerEventType[]): Promise<string> {
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set({ Authorization: `Bearer ${key}` })
    .send({ url: receiver.url(path), eventTypes })
    .expect(201);
  receiver.expect(path, created.body.secret);
  return created.body.endpoint.id as string;
}

function record(manager: EntityManager, type: 'role.granted' | 'role.revoked', organizationId: string, resource: string): Promise<void> {
  return identity.app.get(PartnerEventsService).record(manager, {
    type,
    organizationId,
    resource,
    actor: { kind: 'system', id: 'test' },
    data: { roleBindingId: randomUUID(), uid: 'u', role: 'investor' },
  });
}

/** The events that reached `path`, in the order they arrived, with their outbox seq and resource. */
async function arrivals(path: string, organizationId: string): Promise<{ seq: number; resource: string }[]> {
  const outbox = new Map<string, { seq: number; resource: string }>(
    (
      await identity.dataSource.query(`SELECT id, seq::int AS seq, resource FROM event_outbox WHERE organization_id = $1`, [organizationId])
    ).map((row: { id: string; seq: number; resource: string }) => [row.id, { seq: row.seq, resource: row.resource }]),
  );
  return receiver.at(path).map((entry) => outbox.get(entry.event.id)!);
}

function seqsOf(events: { seq: number; resource: string }[], resource: string): number[] {
  return events.filter((event) => event.resource === resource).map((event) => event.seq);
}

it('fans a backlog larger than a batch out oldest first, also where its seqs gain a digit (99 before 100)', async () => {
  const key = await identity.newAppKey();
  await endpoint(key.secret, '/backlog', ['role.granted']);
  const [{ last }] = await identity.dataSource.query('SELECT coalesce(max(seq), 0)::int AS last FROM event_outbox');
  // The endpoint's only two events, of one resource, straddle a power of ten (…9, 10…0), among more than a
  // batch of events it does not hear of.
  const straddle = 10 ** Math.max(2, String(last + 1).length);
  await identity.dataSource.transaction(async (manager) => {
    for (let seq = last + 1; seq <= straddle + FAN_OUT_BATCH; seq++) {
      const kept = seq === straddle - 1 || seq === straddle;
      await record(manager, kept ? 'role.granted' : 'role.revoked', key.organizationId, kept ? 'role-binding:kept' : `role-binding:${seq}`);
    }
  });
  const [{ first }] = await identity.dataSource.query('SELECT min(seq)::int AS first FROM event_outbox WHERE resource = $1', [
    'role-binding:kept',
  ]);
  expect(first).toBe(straddle - 1);

  await identity.app.get(WebhookDispatcher).drain();

  expect(seqsOf(await arrivals('/backlog', key.organizationId), 'role-binding:kept')).toEqual([straddle - 1, straddle]);
});

it("fans one resource's events out in their order while a second replica's fan-out runs beside a held one", async () => {
  const key = await identity.newAppKey();
  await endpoint(key.secret, '/ordered', ['role.granted']);
  const other = await endpoint(key.secret, '/other', ['role.revoked']);
  // The first event goes to the other endpoint only; then a batch's worth more, the first and the last of
  // one resource: the first fan-out's batch ends just before the last.
  await identity.dataSource.transaction(async (manager) => {
    await record(manager, 'role.revoked', key.organizationId, 'role-binding:other');
    for (let i = 1; i <= FAN_OUT_BATCH; i++) {
      await record(manager, 'role.granted', key.organizationId, i === 1 || i === FAN_OUT_BATCH ? 'role-binding:kept' : `role-binding:${i}`);
    }
  });

  // A change to the other endpoint holds its row (as a PATCH, a rotation or a removal does); the first
  // replica's fan-out, writing that endpoint's delivery, waits for it with its batch locked.
  const change = identity.dataSource.createQueryRunner();
  await change.connect();
  await change.startTransaction();
  await identity.app.get(WebhooksRepository).findEndpoint(other, null, change.manager);
  const now = new Date();
  const first = identity.app.get(WebhookDispatcher).dispatchOnce(now);
  await until(async () => (await backends(`wait_event_type = 'Lock'`)) > 0, "the first fan-out waiting for the endpoint's row");

  // Meanwhile the second replica's rounds, and whatever they send, run to their end.
  const second = replica.get(WebhookDispatcher);
  await second.drain(now);
  await change.rollbackTransaction();
  await change.release();
  await first;
  await Promise.all([identity.app.get(WebhookDispatcher).drain(now), second.drain(now)]);

  const arrived = await arrivals('/ordered', key.organizationId);
  expect(new Set(arrived.map((event) => event.seq)).size).toBe(FAN_OUT_BATCH);
  expect(arrived).toHaveLength(FAN_OUT_BATCH);
  const kept = seqsOf(arrived, 'role-binding:kept');
  expect(kept).toEqual([...kept].sort((a, b) => a - b));
});

it('keeps at most the bound in flight per endpoint while two replicas claim at once and a fan-out commits in between', async () => {
  const key = await identity.newAppKey();
  const template = await endpoint(key.secret, '/claims', ['role.revoked']);
  const [sealed] = await identity.dataSource.query(
    'SELECT secret_sealed AS "secretSealed", created_by_key AS "keyId" FROM webhook_endpoint WHERE id = $1',
    [template],
  );
  const webhooks = identity.app.get(WebhooksRepository);
  const endpoints = await identity.dataSource.transaction(async (manager) => {
    const ids = [template];
    for (let i = 1; i < ENDPOINTS; i++) {
      const created = await webhooks.insertEndpoint(manager, {
        id: uuidv7(),
        organizationId: key.organizationId,
        url: receiver.url('/claims'),
        eventTypes: ['role.revoked'],
        description: null,
        enabled: true,
        ...sealed,
      });
      ids.push(created.id);
    }
    return ids;
  });
  const deliveriesOf = (event: { id: string; seq: string; resource: string }) =>
    endpoints.map((endpointId) => ({
      id: uuidv7(),
      endpointId,
      eventId: event.id,
      eventSeq: event.seq,
      eventType: 'role.granted',
      resource: event.resource,
    }));
  const replicaWebhooks = replica.get(WebhooksRepository);
  const base = Date.now();
  const overBound: string[] = [];

  for (let round = 0; round < ROUNDS; round++) {
    const now = new Date(base + round * 3_600_000);
    await identity.dataSource.transaction(async (manager) => {
      await record(manager, 'role.granted', key.organizationId, `waiting:${round}`);
      await record(manager, 'role.granted', key.organizationId, `new:${round}`);
    });
    const [waiting, fresh] = await identity.dataSource.query(
      `SELECT id, seq::text AS seq, resource FROM event_outbox WHERE resource = ANY($1) ORDER BY event_outbox.seq`,
      [[`waiting:${round}`, `new:${round}`]],
    );
    // Each endpoint has one delivery due (a retry that came due a second ago); a fan-out whose round began
    // a second before that is writing one more each, due earlier, so it comes first in each endpoint's queue.
    await identity.dataSource.transaction((manager) =>
      webhooks.insertDeliveries(manager, deliveriesOf(waiting), new Date(now.getTime() - 1_000)),
    );
    const fanOut = identity.dataSource.createQueryRunner();
    await fanOut.connect();
    await fanOut.startTransaction();
    await webhooks.insertDeliveries(fanOut.manager, deliveriesOf(fresh), new Date(now.getTime() - 2_000));

    // The second replica's claim starts; the fan-out commits while it runs; then the first replica claims.
    let secondDone = false;
    const second = replicaWebhooks
      .claimDue(now, 100_000, { perEndpoint: PER_ENDPOINT, perOrganization: 100_000 }, randomUUID(), 60_000)
      .finally(() => (secondDone = true));
    await until(async () => secondDone || (await backends(`state = 'active' AND query LIKE 'WITH in_flight%'`)) > 0, 'the second claim');
    await fanOut.commitTransaction();
    await fanOut.release();
    await webhooks.claimDue(now, 100_000, { perEndpoint: PER_ENDPOINT, perOrganization: 100_000 }, randomUUID(), 60_000);
    await second;

    const over: { endpointId: string }[] = await identity.dataSource.query(
      `SELECT endpoint_id AS "endpointId" FROM webhook_delivery WHERE lease_token IS NOT NULL AND leased_until > clock_timestamp()
       GROUP BY endpoint_id HAVING count(*) > $1`,
      [PER_ENDPOINT],
    );
    if (over.length > 0) overBound.push(`round ${round}: ${over.length} endpoints`);
    await identity.dataSource.query(
      `UPDATE webhook_delivery SET status = 'delivered', lease_token = NULL, leased_until = NULL, next_attempt_at = NULL
       WHERE status = 'pending' AND endpoint_id = ANY($1)`,
      [endpoints],
    );
  }

  expect(overBound).toEqual([]);
}, 120_000);
