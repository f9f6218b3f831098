import request from 'supertest';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { DELIVERY_HISTORY_DAYS, WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// How long a live endpoint's deliveries, and the events they carried, are kept: a test event or any other
// write adds one of each, so without an end every partner grows both tables for good.
let identity: RunningIdentity;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher;
const day = 86_400_000;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true', RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000' });
  dispatcher = identity.app.get(WebhookDispatcher);
});
afterAll(async () => {
  await identity?.close();
  await receiver.close();
});

it(`keeps a live endpoint's ended deliveries ${DELIVERY_HISTORY_DAYS} days, then forgets them and their events; a pending one stays`, async () => {
  const key = await identity.newAppKey({ maxApps: 10 });
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set(bearer(key.secret))
    .send({ url: receiver.url('/history'), eventTypes: ['app.registered'] })
    .expect(201);
  const endpointId = created.body.endpoint.id as string;
  receiver.expect('/history', created.body.secret);
  receiver.answer('/history', 204);
  for (let i = 0; i < 5; i++)
    await request(identity.server).post(`/v1/webhook-endpoints/${endpointId}/test`).set(bearer(key.secret)).expect(202);
  await dispatcher.drain();
  receiver.answer('/history', 503);
  await request(identity.server)
    .post('/v1/apps')
    .set(bearer(key.secret))
    .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
    .expect(201);
  await dispatcher.drain();

  const stored = async () =>
    (
      (await identity.dataSource.query(
        `SELECT d.status, count(*)::int AS deliveries, count(o.id)::int AS events
           FROM webhook_delivery d LEFT JOIN event_outbox o ON o.id = d.event_id WHERE d.endpoint_id = $1 GROUP BY d.status ORDER BY d.status`,
        [endpointId],
      )) as { status: string; deliveries: number; events: number }[]
    ).map(({ status, deliveries, events }) => `${status}: ${deliveries} (events ${events})`);
  const eventsOfTheEndpoint = async () =>
    (
      await identity.dataSource.query(
        `SELECT count(*)::int AS n FROM event_outbox WHERE organization_id = $1 AND (type = 'app.registered' OR resource = $2)`,
        [key.organizationId, `endpoint:${endpointId}`],
      )
    )[0].n as number;
  expect(await stored()).toEqual(['delivered: 5 (events 5)', 'pending: 1 (events 1)']);
  expect(await eventsOfTheEndpoint()).toBe(6);

  await dispatcher.drain(new Date(Date.now() + (DELIVERY_HISTORY_DAYS - 1) * day));
  expect(await stored()).toEqual(['delivered: 5 (events 5)', 'pending: 1 (events 1)']);

  await dispatcher.drain(new Date(Date.now() + (DELIVERY_HISTORY_DAYS + 1) * day));
  expect(await stored()).toEqual(['pending: 1 (events 1)']);
  expect(await eventsOfTheEndpoint()).toBe(1);
  const listed = await request(identity.server).get(`/v1/webhook-endpoints/${endpointId}/deliveries`).set(bearer(key.secret)).expect(200);
  expect(listed.body.items.map((delivery: { status: string }) => delivery.status)).toEqual(['pending']);
});
