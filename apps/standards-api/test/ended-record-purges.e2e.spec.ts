import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// The records standards-api keeps for a while only: Idempotency-Keys (a day), confirmation challenges (a day after they end)
// and the outbox's events (a day after identity has them).
const ORG = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;
const as = (credential: string, key?: string) => ({
  Authorization: `Bearer ${credential}:${ORG}`,
  'X-Organization-Id': ORG,
  ...(key ? { 'Idempotency-Key': key } : {}),
});

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    PURGE_INTERVAL_MS: '50',
  });
});
afterAll(async () => {
  await api?.close();
  await identity.stop();
});

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function projectWithTwoScenarios(): Promise<{ projectId: string; scenarioIds: [string, string] }> {
  const made = await request(api.server)
    .post('/api/v2/split-projects')
    .set(as('member-of'))
    .send({ name: 'Purges', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
    .expect(201);
  const branch = await request(api.server)
    .post(`/api/v2/split-projects/${made.body.project.id}/scenarios`)
    .set(as('member-of'))
    .send({ name: 'Other', fromScenarioId: made.body.scenario.id })
    .expect(201);
  return { projectId: made.body.project.id, scenarioIds: [made.body.scenario.id, branch.body.id] };
}

const keysLeft = async (keys: string[]): Promise<string[]> =>
  (
    (await api.dataSource.query('SELECT idempotency_key AS key FROM idempotency_record WHERE idempotency_key = ANY($1) ORDER BY 1', [
      keys,
    ])) as { key: string }[]
  ).map((row) => row.key);

it('forgets an Idempotency-Key a day after its claim, a comparison’s (which stores nothing else) included, and keeps a younger one', async () => {
  const { projectId, scenarioIds } = await projectWithTwoScenarios();
  const compare = (key: string) =>
    request(api.server)
      .post(`/api/v2/split-projects/${projectId}/scenario-comparisons`)
      .set(as('member-of', key))
      .send({ scenarios: scenarioIds.map((scenarioId) => ({ scenarioId })) })
      .expect(200);
  const keys = Array.from({ length: 20 }, (_, i) => `purge-comparison-${String(i).padStart(2, '0')}`);
  for (const key of keys) await compare(key);
  expect(await keysLeft(keys)).toEqual(keys);

  const [young, ...old] = keys;
  await api.dataSource.query(
    `UPDATE idempotency_record SET created_at = created_at - interval '25 hours' WHERE idempotency_key = ANY($1)`,
    [old],
  );
  await until(async () => (await keysLeft(keys)).length === 1, 'the purge of the keys claimed over a day ago');
  expect(await keysLeft(keys)).toEqual([young]);
  expect((await compare(young!)).headers['idempotent-replayed']).toBe('true');
  expect((await compare(old[0]!)).headers['idempotent-replayed']).toBeUndefined();
});

it('purges a confirmation challenge a day after it expired or was spent, and keeps one still open or ended since', async () => {
  const { projectId, scenarioIds } = await projectWithTwoScenarios();
  const challenge = async (): Promise<string> => {
    await request(api.server)
      .post(`/api/v2/split-projects/${projectId}/activate`)
      .set(as('approver-of'))
      .send({ scenarioId: scenarioIds[0] })
      .expect(428);
    const [row] = await api.dataSource.query(
      'SELECT token_sha256 AS token FROM confirmation_challenge WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1',
      [projectId],
    );
    return row.token as string;
  };
  const expired = await challenge();
  const spent = await challenge();
  const endedAnHourAgo = await challenge();
  const open = await challenge();
  await api.dataSource.query(`UPDATE confirmation_challenge SET expires_at = now() - interval '2 days' WHERE token_sha256 = $1`, [expired]);
  await api.dataSource.query(`UPDATE confirmation_challenge SET used_at = now() - interval '2 days' WHERE token_sha256 = $1`, [spent]);
  await api.dataSource.query(`UPDATE confirmation_challenge SET expires_at = now() - interval '1 hour' WHERE token_sha256 = $1`, [
    endedAnHourAgo,
  ]);
  const left = async (): Promise<string[]> =>
    (
      (await api.dataSource.query('SELECT token_sha256 AS token FROM confirmation_challenge WHERE project_id = $1', [projectId])) as {
        token: string;
      }[]
    )
      .map((row) => row.token)
      .sort();

  await until(async () => (await left()).length === 2, 'the purge of the challenges that ended over a day ago');
  expect(await left()).toEqual([endedAnHourAgo, open].sort());
});

it('purges an event a day after identity has it, and keeps one handed over since and one identity has not got yet', async () => {
  const { projectId } = await projectWithTwoScenarios();
  const events = async (): Promise<string[]> =>
    (
      (await api.dataSource.query('SELECT type FROM event_outbox WHERE resource = $1 ORDER BY seq', [`split-project:${projectId}`])) as {
        type: string;
      }[]
    ).map((row) => row.type);
  const written = await events();
  expect(written).toEqual(['split_project.created', 'scenario.branched']);
  await api.dataSource.query(
    `UPDATE event_outbox SET handed_over_at = CASE type WHEN 'split_project.created' THEN now() - interval '2 days' ELSE now() - interval '1 hour' END
      WHERE resource = $1`,
    [`split-project:${projectId}`],
  );
  await request(api.server)
    .post('/api/v2/split-projects')
    .set(as('member-of'))
    .send({ name: 'Waiting', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
    .expect(201);
  const waiting = await api.dataSource.query('SELECT count(*)::int AS n FROM event_outbox WHERE handed_over_at IS NULL');

  await until(async () => (await events()).length === 1, 'the purge of the event identity has had for over a day');
  expect(await events()).toEqual(['scenario.branched']);
  expect(await api.dataSource.query('SELECT count(*)::int AS n FROM event_outbox WHERE handed_over_at IS NULL')).toEqual(waiting);
});
