import request from 'supertest';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// One receiver hangs on every request; another endpoint's events go on arriving meanwhile (issue 27).
// The dispatcher runs on its own, as in production; a hung request would time out only after 10 s.

const PER_ENDPOINT = 2;
const PER_ORGANIZATION = 3;
/** Fewer places than one partner's five endpoints could take at their own bound (10). */
const PLACES = 4;
let identity: RunningIdentity;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startIdentity({
    WEBHOOK_DISPATCHER: 'on',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    WEBHOOK_TIMEOUT_MS: '10000',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(PER_ENDPOINT),
    WEBHOOK_ORGANIZATION_CONCURRENCY: String(PER_ORGANIZATION),
    WEBHOOK_MAX_IN_FLIGHT: String(PLACES),
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '10000',
  });
});
afterAll(async () => {
  await identity.close();
  await receiver.close();
});

async function until(probe: () => boolean, what: string, seconds: number): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; !probe();) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function untilAsync(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 8_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function deliveriesTo(path: string): Promise<number> {
  const [row] = await identity.dataSource.query(
    `SELECT count(*)::int AS n FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id WHERE e.url = $1`,
    [receiver.url(path)],
  );
  return row.n;
}

async function endpoint(path: string, given?: Awaited<ReturnType<RunningIdentity['newAppKey']>>) {
  const key = given ?? (await identity.newAppKey({ maxApps: 20 }));
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set({ Authorization: `Bearer ${key.secret}` })
    .send({ url: receiver.url(path), eventTypes: ['app.registered'] })
    .expect(201);
  receiver.expect(path, created.body.secret);
  return key;
}

const registerApp = (key: string) =>
  request(identity.server)
    .post('/v1/apps')
    .set({ Authorization: `Bearer ${key}` })
    .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
    .expect(201);

it("delivers to a healthy endpoint while another's receiver hangs, which holds no more than its own places", async () => {
  const hanging = await endpoint('/hangs');
  const healthy = await endpoint('/healthy');
  receiver.hold('/hangs');
  for (let index = 0; index < 6; index++) await registerApp(hanging.secret);
  await until(() => receiver.at('/hangs').length >= 1, 'the hanging receiver to hold a request', 8);

  for (let index = 0; index < 3; index++) {
    await registerApp(healthy.secret);
    // Well within the 10 s a hung request takes to time out: the healthy endpoint does not wait for it.
    await until(() => receiver.at('/healthy').length === index + 1, `the healthy endpoint's event ${index + 1}`, 8);
  }

  // Every request the hanging receiver got is still unanswered, and it got no more than its bound.
  expect(receiver.at('/hangs')).toHaveLength(PER_ENDPOINT);
  receiver.release('/hangs');
  await until(() => receiver.at('/hangs').length === 6, 'the rest once the receiver answers', 30);
  expect(receiver.unverified).toEqual([]);
});

it("delivers to another partner while one partner's many endpoints hang, which hold no more than their organization's places", async () => {
  const crowd = await identity.newAppKey({ maxApps: 20 });
  const paths = ['/crowd-1', '/crowd-2', '/crowd-3', '/crowd-4', '/crowd-5'];
  for (const path of paths) {
    await endpoint(path, crowd);
    receiver.hold(path);
  }
  const other = await endpoint('/other');
  const held = () => paths.reduce((sum, path) => sum + receiver.at(path).length, 0);
  // 15 deliveries to five hanging receivers: at their own bound they could take 10 places, and a replica has 4.
  for (let index = 0; index < 3; index++) await registerApp(crowd.secret);
  await until(() => held() >= PER_ORGANIZATION, "the crowd's receivers to hold requests", 8);

  for (let index = 0; index < 3; index++) {
    await registerApp(other.secret);
    await until(() => receiver.at('/other').length === index + 1, `the other partner's event ${index + 1}`, 8);
  }

  expect(held()).toBe(PER_ORGANIZATION);
  for (const path of paths) receiver.release(path);
  await until(() => held() === 15, "the crowd's events once its receivers answer", 30);
  expect(receiver.unverified).toEqual([]);
});

it("gives the first place that frees to a partner with nothing on the wire, before two hanging partners' older deliveries", async () => {
  const first = await identity.newAppKey({ maxApps: 20 });
  const second = await identity.newAppKey({ maxApps: 20 });
  const paths = ['/first-1', '/first-2', '/second-1', '/second-2'];
  for (const path of paths) {
    await endpoint(path, path.startsWith('/first') ? first : second);
    receiver.hold(path);
  }
  const healthy = await endpoint('/healthy-partner');
  const held = () => paths.reduce((sum, path) => sum + receiver.at(path).length, 0);
  // 12 deliveries to four hanging receivers of two partners: together they take every place.
  for (let index = 0; index < 3; index++) {
    await registerApp(first.secret);
    await registerApp(second.secret);
  }
  await until(() => held() === PLACES, "the hanging partners' receivers to hold every place", 8);
  await registerApp(healthy.secret);
  await untilAsync(async () => (await deliveriesTo('/healthy-partner')) === 1, "the healthy partner's delivery to be due");

  // One hanging receiver answers: its places free, and the first goes to the partner with none on the wire.
  const before = receiver.received.length;
  const answering = paths.find((path) => receiver.at(path).length > 0)!;
  receiver.release(answering);
  await until(() => receiver.received.length > before, 'a freed place to be used', 8);
  expect(receiver.received[before]!.path).toBe('/healthy-partner');

  for (const path of paths) receiver.release(path);
  await until(() => held() === 12, "the hanging partners' events once their receivers answer", 30);
  expect(receiver.unverified).toEqual([]);
});
