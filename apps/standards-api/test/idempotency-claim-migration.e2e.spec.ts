import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { canonicalJson } from '@stdreg/split-engine';
import { sampleScenario } from './support/sample-scenario';
import { startStandardsApi, undoMigrationsThrough, type RunningStandardsApi } from './support/standards-api-app';

// The migration that names the request holding each idempotency claim, on records the previous release wrote (no claim).
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

const ROUTE = '/api/v2/split-projects';
const project = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const create = (key: string, name: string) =>
  request(api.server)
    .post(ROUTE)
    .set({ Authorization: `Bearer member-of:${ORG}`, 'X-Organization-Id': ORG, 'Idempotency-Key': key })
    .send(project(name));
const projectsNamed = async (name: string): Promise<number> =>
  (await api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name]))[0].n;
const columnsOfRecords = async (): Promise<string[]> =>
  (
    (await api.dataSource.query(
      `SELECT column_name || ' ' || data_type || ' ' || is_nullable AS col FROM information_schema.columns
        WHERE table_name = 'idempotency_record' ORDER BY column_name`,
    )) as { col: string }[]
  ).map((row) => row.col);

/** The columns before the claim: no claim id, and the body still `jsonb` (a later migration makes it `json`). */
const beforeClaims = (columns: string[]): string[] =>
  columns.filter((column) => !column.startsWith('claim_id ')).map((column) => column.replace(/^body json /, 'body jsonb '));

it('keeps the meaning of records written before it: answered ones replay, pending ones are in progress until abandoned, then taken over once', async () => {
  const answered = await create('answered', 'Upgrade answered').expect(201);
  await create('answer-lost', 'Upgrade answer lost').expect(201);
  const [{ scope }] = await api.dataSource.query(`SELECT scope FROM idempotency_record WHERE idempotency_key = 'answered'`);
  const columnsNow = await columnsOfRecords();

  // The previous release's schema and rows: no claim on any record, one of them performed but never answered, two still pending.
  await undoMigrationsThrough(api.dataSource, 'IdempotencyClaim1764600000000');
  expect(await columnsOfRecords()).toEqual(beforeClaims(columnsNow));
  // Performed long ago (past the takeover time): a retry now is told its answer was lost, not that it is in progress.
  await api.dataSource.query(
    `UPDATE idempotency_record SET status = NULL, body = NULL, created_at = now() - interval '10 minutes' WHERE idempotency_key = 'answer-lost'`,
  );
  const hashOf = (name: string) =>
    createHash('sha256')
      .update(canonicalJson(project(name)))
      .digest('hex');
  const pending = (key: string, name: string, age: string) =>
    api.dataSource.query(
      `INSERT INTO idempotency_record (scope, idempotency_key, request_hash, created_at) VALUES ($1, $2, $3, now() - $4::interval)`,
      [scope, key, hashOf(name), age],
    );
  await pending('pending-now', 'Upgrade pending now', '1 second');
  await pending('pending-abandoned', 'Upgrade abandoned', '10 minutes');

  await api.dataSource.runMigrations();

  const replay = await create('answered', 'Upgrade answered').expect(201);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body).toEqual(answered.body);
  expect((await create('answer-lost', 'Upgrade answer lost').expect(409)).body.domainCode).toBe('idempotency.answer_lost');
  expect((await create('pending-now', 'Upgrade pending now').expect(409)).body.domainCode).toBe('idempotency.in_progress');
  expect((await create('pending-now', 'Upgrade other body').expect(422)).body.domainCode).toBe('idempotency.key_reused');

  // The abandoned claim is taken over; the request that took it over answers, and its answer replays.
  const takenOver = await create('pending-abandoned', 'Upgrade abandoned').expect(201);
  const again = await create('pending-abandoned', 'Upgrade abandoned').expect(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(takenOver.body);
  expect(await projectsNamed('Upgrade abandoned')).toBe(1);
  expect(await projectsNamed('Upgrade pending now')).toBe(0);

  // Its down restores the previous release's columns.
  await undoMigrationsThrough(api.dataSource, 'IdempotencyClaim1764600000000');
  expect(await columnsOfRecords()).toEqual(beforeClaims(columnsNow));
  await api.dataSource.runMigrations();
  expect(await columnsOfRecords()).toEqual(columnsNow);
});
