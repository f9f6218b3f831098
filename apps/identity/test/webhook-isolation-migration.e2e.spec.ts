import request from 'supertest';
import { WebhookDispatcher } from '../src/partners/webhooks/webhook-dispatcher';
import { undoMigrationsThrough } from './support/identity-app';
import { startWebhookScene, type WebhookScene } from './support/webhook-scene';

// The migration that made webhook endpoints removable and isolated (issue 27), on endpoints and deliveries written
// before it: one leased by a replica still delivering it, one leased by a replica that died, one failed, one due.
let scene: WebhookScene;
beforeAll(async () => {
  scene = await startWebhookScene();
});
afterAll(() => scene?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

it('keeps the meaning of earlier endpoints and deliveries: a stopped endpoint says why, leases are honoured, failed ones stay failed', async () => {
  const dispatcher = scene.identity.app.get(WebhookDispatcher);
  const key = await scene.identity.newAppKey({ maxApps: 10 });
  const endpointAt = async (path: string): Promise<string> => {
    const created = await request(scene.identity.server)
      .post('/v1/webhook-endpoints')
      .set(bearer(key.secret))
      .send({ url: scene.receiver.url(path), eventTypes: ['app.registered'] })
      .expect(201);
    scene.receiver.expect(path, created.body.secret);
    return created.body.endpoint.id;
  };
  const live = await endpointAt('/live');
  const stopped = await endpointAt('/stopped');
  for (let i = 0; i < 4; i++)
    await request(scene.identity.server)
      .post('/v1/apps')
      .set(bearer(key.secret))
      .send({ name: `Portal ${i}`, type: 'Traditional', redirectUris: ['https://portal.example/cb'] })
      .expect(201);

  await undoMigrationsThrough(scene.identity.dataSource, 'WebhookDeliveryIsolationAndRemoval1763900001100');
  // The previous dispatcher's fan-out of the four apps' events, to both endpoints.
  const [inFlight, leaseLost, failed, due] = (
    (await scene.identity.dataSource.query(
      `WITH fanned AS (UPDATE event_outbox SET fanned_out_at = now() WHERE fanned_out_at IS NULL AND type = 'app.registered' RETURNING id, seq, type, resource)
       INSERT INTO webhook_delivery (id, endpoint_id, event_id, event_seq, event_type, resource, status, attempts, next_attempt_at)
       SELECT gen_random_uuid(), e.id, f.id, f.seq, f.type, f.resource, 'pending', 0, now() FROM fanned f CROSS JOIN (VALUES ($1::uuid), ($2::uuid)) AS e (id)
       RETURNING id, endpoint_id, event_seq`,
      [live, stopped],
    )) as { id: string; endpoint_id: string; event_seq: string }[]
  )
    .filter((row) => row.endpoint_id === live)
    .sort((a, b) => Number(a.event_seq) - Number(b.event_seq))
    .map((row) => row.id);
  expect(due).toBeDefined();
  await scene.identity.dataSource.query(
    `UPDATE webhook_delivery SET attempts = 1, last_attempt_at = now(), lease_token = gen_random_uuid(),
       leased_until = CASE WHEN id = $1 THEN now() + interval '1 hour' ELSE now() - interval '1 minute' END WHERE id IN ($1, $2)`,
    [inFlight, leaseLost],
  );
  await scene.identity.dataSource.query(
    `UPDATE webhook_delivery SET status = 'failed', attempts = 8, next_attempt_at = NULL, response_status = 503, error = 'HTTP 503'
      WHERE id = $1`,
    [failed],
  );
  await scene.identity.dataSource.query(`UPDATE webhook_endpoint SET enabled = false, disabled_for_failures = true WHERE id = $1`, [
    stopped,
  ]);

  await scene.identity.dataSource.runMigrations();

  const endpoint = async (id: string) =>
    (await request(scene.identity.server).get(`/v1/webhook-endpoints/${id}`).set(bearer(key.secret)).expect(200)).body;
  expect(await endpoint(stopped)).toMatchObject({ status: 'failing_disabled', enabled: false, disabledReason: 'deliveries kept failing' });
  expect(await endpoint(live)).toMatchObject({ status: 'enabled', disabledReason: null, deletedAt: null });
  const statuses = async () =>
    Object.fromEntries(
      (
        (await request(scene.identity.server).get(`/v1/webhook-endpoints/${live}/deliveries`).set(bearer(key.secret)).expect(200)).body
          .items as {
          id: string;
          status: string;
        }[]
      ).map((delivery) => [delivery.id, delivery.status]),
    );
  expect(await statuses()).toEqual({ [inFlight!]: 'pending', [leaseLost!]: 'pending', [failed!]: 'failed', [due!]: 'pending' });

  // The replica holding a lease may still deliver it: only the others go now, and that one once its lease ends.
  await dispatcher.drain();
  expect(await statuses()).toEqual({ [inFlight!]: 'pending', [leaseLost!]: 'delivered', [failed!]: 'failed', [due!]: 'delivered' });
  // Leases end by the database's clock: the hour passes.
  await scene.identity.dataSource.query(`UPDATE webhook_delivery SET leased_until = now() - interval '1 second' WHERE id = $1`, [inFlight]);
  await dispatcher.drain(new Date(Date.now() + 2 * 60 * 60 * 1000));
  expect(await statuses()).toEqual({ [inFlight!]: 'delivered', [leaseLost!]: 'delivered', [failed!]: 'failed', [due!]: 'delivered' });
  expect(scene.receiver.at('/live')).toHaveLength(3);

  // A failed delivery replays as before.
  await request(scene.identity.server)
    .post(`/v1/webhook-endpoints/${live}/deliveries/${failed}/replay`)
    .set(bearer(key.secret))
    .expect(202);
  await dispatcher.drain(new Date(Date.now() + 2 * 60 * 60 * 1000));
  expect(await statuses()).toMatchObject({ [failed!]: 'delivered' });
  expect(scene.receiver.at('/stopped')).toHaveLength(0);

  // Removing the stopped endpoint drops its pending deliveries; the down turns them into failures, which the previous
  // release knew, and gives the previous columns back.
  await request(scene.identity.server).delete(`/v1/webhook-endpoints/${stopped}`).set(bearer(key.secret)).expect(204);
  const statusesOfStopped = async () =>
    (
      (await scene.identity.dataSource.query(
        'SELECT status, count(*)::int AS n FROM webhook_delivery WHERE endpoint_id = $1 GROUP BY status ORDER BY status',
        [stopped],
      )) as { status: string; n: number }[]
    ).map(({ status, n }) => `${status}: ${n}`);
  expect(await statusesOfStopped()).toEqual(['dropped: 4']);
  await undoMigrationsThrough(scene.identity.dataSource, 'WebhookDeliveryIsolationAndRemoval1763900001100');
  expect(await statusesOfStopped()).toEqual(['failed: 4']);
  const [{ columns }] = await scene.identity.dataSource.query(
    `SELECT string_agg(column_name, ',' ORDER BY column_name) AS columns FROM information_schema.columns WHERE table_name = 'webhook_endpoint'
        AND column_name IN ('deleted_at', 'disabled_reason', 'last_attempt_failed', 'disabled_for_failures')`,
  );
  expect(columns).toBe('disabled_for_failures');
  await scene.identity.dataSource.runMigrations();
});

it('gives an endpoint disabled before `disabledAt` existed the time it was last changed, and an enabled one none', async () => {
  const key = await scene.identity.newAppKey({ maxApps: 1 });
  const endpointAt = async (path: string, enabled: boolean): Promise<string> =>
    (
      await request(scene.identity.server)
        .post('/v1/webhook-endpoints')
        .set(bearer(key.secret))
        .send({ url: scene.receiver.url(path), eventTypes: ['app.registered'], enabled })
        .expect(201)
    ).body.endpoint.id;
  const paused = await endpointAt('/paused-before', false);
  const live = await endpointAt('/live-before', true);

  await undoMigrationsThrough(scene.identity.dataSource, 'WebhookEndpointDisabledAt1765000000004');
  const [{ n }] = await scene.identity.dataSource.query(
    `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'webhook_endpoint' AND column_name = 'disabled_at'`,
  );
  expect(n).toBe(0);
  await scene.identity.dataSource.query(`UPDATE webhook_endpoint SET updated_at = '2026-01-02T03:04:05Z' WHERE id = ANY($1)`, [
    [paused, live],
  ]);
  await scene.identity.dataSource.runMigrations();

  const endpoint = async (id: string) =>
    (await request(scene.identity.server).get(`/v1/webhook-endpoints/${id}`).set(bearer(key.secret)).expect(200)).body;
  expect(await endpoint(paused)).toMatchObject({ status: 'disabled', disabledAt: '2026-01-02T03:04:05.000Z' });
  expect(await endpoint(live)).toMatchObject({ status: 'enabled', disabledAt: null });
});
