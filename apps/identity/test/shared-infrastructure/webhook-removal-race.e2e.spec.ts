// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the removal's transaction and
// the dispatcher's must run side by side, which an embedded database's single connection cannot.
import request from 'supertest';
import { JsonLogger } from '@stdreg/server-kit';
import { WebhookDispatcher } from '../../src/partners/webhooks/webhook-dispatcher';
import { WebhooksRepository } from '../../src/partners/webhooks/webhooks.repository';
import { startWebhookScene, type WebhookScene } from '../support/webhook-scene';

let scene: WebhookScene;
beforeAll(async () => {
  scene = await startWebhookScene();
});
afterAll(() => scene?.close());

async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

it('records a 410 that arrives while its endpoint is being removed, in the same lock order, without a deadlock', async () => {
  const key = await scene.identity.newAppKey();
  const created = await request(scene.identity.server)
    .post('/v1/webhook-endpoints')
    .set({ Authorization: `Bearer ${key.secret}` })
    .send({ url: scene.receiver.url('/gone'), eventTypes: ['app.registered'] })
    .expect(201);
  const endpointId = created.body.endpoint.id as string;
  scene.receiver.expect('/gone', created.body.secret);
  scene.receiver.answer('/gone', 410);
  scene.receiver.hold('/gone');
  await request(scene.identity.server)
    .post('/v1/apps')
    .set({ Authorization: `Bearer ${key.secret}` })
    .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
    .expect(201);
  const errors: string[] = [];
  const logger = scene.identity.app.get(JsonLogger);
  const logError = logger.error.bind(logger);
  logger.error = (message: unknown, ...rest: [string?, string?]) => {
    errors.push(String(message));
    logError(message, ...rest);
  };
  const draining = scene.identity.app.get(WebhookDispatcher).drain();
  await until(() => scene.receiver.at('/gone').length === 1, 'the attempt on the wire');

  // The removal's steps, as WebhooksService.remove takes them: the endpoint locked, then its deliveries dropped.
  const webhooks = scene.identity.app.get(WebhooksRepository);
  const removal = scene.identity.dataSource.createQueryRunner();
  await removal.connect();
  await removal.startTransaction();
  await webhooks.findEndpoint(endpointId, null, removal.manager);
  scene.receiver.release('/gone');
  await until(
    async () =>
      (
        await scene.identity.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        )
      )[0].n > 0,
    "the attempt's transaction waiting for the endpoint",
  );
  expect(await webhooks.softDelete(removal.manager, endpointId, new Date())).toBe(1);
  await removal.commitTransaction();
  await removal.release();
  await draining;
  logger.error = logError;

  expect(errors).toEqual([]);
  const [row] = await scene.identity.dataSource.query('SELECT status, lease_token FROM webhook_delivery WHERE endpoint_id = $1', [
    endpointId,
  ]);
  expect(row).toEqual({ status: 'dropped', lease_token: null });
});
