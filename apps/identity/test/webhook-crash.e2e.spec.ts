import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtArtifact, createTestDatabase, freePort, ROOT, WebhookReceiver, type TestDatabase } from '@stdreg/server-kit/testing';

// identity's built artifact, killed with SIGKILL while its dispatcher is delivering and started again on
// the same database: every event arrives, and an event sent twice carries the same webhook-id both times.

const EVENTS = 40;
let receiver: WebhookReceiver;
let database: TestDatabase;
let dataDir: string;
let port: number;
let child: ChildProcess | null = null;

function start(): ChildProcess {
  return spawn(process.execPath, [builtArtifact('identity')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env['PATH'] ?? '',
      LOG_LEVEL: 'error',
      IDENTITY_PORT: String(port),
      DATA_DIR: dataDir,
      BOOTSTRAP_PLATFORM_KEY: 'auto',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_LEASE_MS: '11000',
      RATE_LIMIT_PLATFORM_PER_MINUTE: '100000',
      RATE_LIMIT_PLATFORM_BURST: '100000',
      ...(database.kind === 'server' ? database.env : {}),
    },
  });
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, seconds = 120): Promise<T> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still waiting for ${what}`);
}

const ready = () =>
  fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    (response) => (response.ok ? true : undefined),
    () => undefined,
  );

async function call(key: string, method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  database = await createTestDatabase('identity_webhook_crash');
  dataDir = await mkdtemp(path.join(tmpdir(), 'stdreg-webhook-crash-'));
  port = await freePort();
}, 180_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await receiver.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

it('delivers every event after a dispatcher is killed mid-delivery and started again, a repeat under the same webhook-id', async () => {
  child = start();
  await until(ready, 'identity to start');
  const platformKey = (await readFile(path.join(dataDir, 'bootstrap-platform-key'), 'utf8')).trim();
  const organization = await call(platformKey, 'POST', '/v1/organizations', { name: 'Crash test' });
  const endpoint = await call(platformKey, 'POST', '/v1/webhook-endpoints', {
    url: receiver.url('/crash'),
    eventTypes: ['role.granted'],
    organizationId: organization['id'],
  });
  receiver.expect('/crash', endpoint['secret'] as string);
  // No answers yet: the deliveries the dispatcher sends stay on the wire until it is killed.
  receiver.hold('/crash');
  const sync = await call(platformKey, 'POST', '/v1/apps', {
    name: 'Crash',
    type: 'Traditional',
    redirectUris: ['https://crash.example/cb'],
  });
  const registryId = (sync['app'] as { registryId: string }).registryId;
  const users = await call(platformKey, 'POST', '/v1/sync', {
    registryId,
    records: Array.from({ length: EVENTS }, (_, i) => ({
      externalId: `p${i}`,
      email: `p${i}@crash.example`,
      emailVerified: false,
      displayName: `P${i}`,
      locale: 'en',
    })),
  });
  const uids = (users['results'] as { uid: string }[]).map((result) => result.uid);
  // Quickly (8 at a time): a request held longer than WEBHOOK_TIMEOUT_MS would be retried on its own, before any kill.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let index = next++; index < uids.length; index = next++) {
        await call(platformKey, 'POST', '/v1/role-bindings', { uid: uids[index], role: 'investor', organizationId: organization['id'] });
      }
    }),
  );
  await until(() => (receiver.at('/crash').length >= 3 ? true : undefined), 'the first deliveries on the wire');
  child.kill('SIGKILL');
  await new Promise((resolve) => child!.once('exit', resolve));
  receiver.release('/crash');
  const beforeRestart = new Set(receiver.at('/crash').map((entry) => entry.event.id)).size;

  child = start();
  await until(ready, 'identity to start again');
  await until(() => (new Set(receiver.at('/crash').map((entry) => entry.event.id)).size >= EVENTS ? true : undefined), 'every event');

  // Every delivery recorded delivered: the ones on the wire at the kill were sent again once their lease ran out.
  const endpointId = (endpoint['endpoint'] as { id: string }).id;
  await until(async () => {
    const pending = await call(platformKey, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries?status=pending`);
    return (pending['items'] as unknown[]).length === 0 ? true : undefined;
  }, 'no delivery pending');
  const webhookIdsByEvent = new Map<string, Set<string>>();
  const received = receiver.at('/crash');
  for (const entry of received) {
    webhookIdsByEvent.set(entry.event.id, (webhookIdsByEvent.get(entry.event.id) ?? new Set()).add(entry.webhookId));
  }
  const duplicates = received.length - webhookIdsByEvent.size;
  console.info(`kill -9 after ${beforeRestart} of ${EVENTS} events: ${received.length} requests, ${duplicates} duplicates`);
  expect(webhookIdsByEvent.size).toBe(EVENTS);
  expect([...webhookIdsByEvent.values()].every((ids) => ids.size === 1)).toBe(true);
  expect(beforeRestart).toBeLessThan(EVENTS);
  // Every request on the wire when it was killed was sent again (under its webhook-id, checked above); on a
  // slow machine a held request may also have timed out and been retried before the kill.
  expect(duplicates).toBeGreaterThanOrEqual(beforeRestart);
  expect(receiver.unverified).toEqual([]);
  const uidsReceived = new Set(received.map((entry) => entry.event.data['uid']));
  expect(uidsReceived).toEqual(new Set(uids));
});
