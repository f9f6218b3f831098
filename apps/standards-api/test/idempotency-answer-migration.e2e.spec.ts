import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, undoMigrationsThrough, type RunningStandardsApi } from './support/standards-api-app';

// The migration that keeps a replayed answer as it was sent (`json`), on answers the previous release kept in `jsonb`.
const ORG = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef' });
});
afterAll(async () => {
  await api?.close();
  await identity.stop();
});

const MIGRATION = 'IdempotencyAnswerAsSent1764800000000';
const create = (key: string, name: string) =>
  request(api.server)
    .post('/api/v2/split-projects')
    .set({ Authorization: `Bearer member-of:${ORG}`, 'X-Organization-Id': ORG, 'Idempotency-Key': key })
    .send({ name, currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } });
const bodyType = async (): Promise<string> =>
  (
    await api.dataSource.query(
      `SELECT data_type AS type FROM information_schema.columns WHERE table_name = 'idempotency_record' AND column_name = 'body'`,
    )
  )[0].type;

const storedAnswer = async (key: string): Promise<unknown> =>
  (await api.dataSource.query(`SELECT body FROM idempotency_record WHERE idempotency_key = $1`, [key]))[0].body;

// Between the undo and the migration again only SQL runs: the code of this release writes columns later migrations add.
it('replays answers kept before it (in their jsonb order), and every answer kept after it byte for byte; its down restores jsonb', async () => {
  expect(await bodyType()).toBe('json');
  const before = await create('kept-before', 'Answer kept before').expect(201);
  await undoMigrationsThrough(api.dataSource, MIGRATION);
  expect(await bodyType()).toBe('jsonb');
  expect(await storedAnswer('kept-before')).toEqual(before.body);

  await api.dataSource.runMigrations();

  expect(await bodyType()).toBe('json');
  const replayOfBefore = await create('kept-before', 'Answer kept before').expect(201);
  expect(replayOfBefore.headers['idempotent-replayed']).toBe('true');
  expect(replayOfBefore.body).toEqual(before.body);
  const after = await create('kept-after', 'Answer kept after').expect(201);
  const replayOfAfter = await create('kept-after', 'Answer kept after').expect(201);
  expect(replayOfAfter.headers['idempotent-replayed']).toBe('true');
  expect(replayOfAfter.text).toBe(after.text);

  await undoMigrationsThrough(api.dataSource, MIGRATION);
  expect(await bodyType()).toBe('jsonb');
  expect(await storedAnswer('kept-after')).toEqual(after.body);
  await api.dataSource.runMigrations();
  expect((await create('kept-after', 'Answer kept after').expect(201)).body).toEqual(after.body);
});
