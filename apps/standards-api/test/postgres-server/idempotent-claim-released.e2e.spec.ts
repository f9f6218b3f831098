// Needs a PostgreSQL server: two requests' claims of one key interleave on separate connections.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from '../support/sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from '../support/standards-api-app';

const ORG = randomUUID();
const identity = new FakeIdentity();
let api: RunningStandardsApi;
const headers = (key: string) => ({ Authorization: `Bearer member-of:${ORG}`, 'X-Organization-Id': ORG, 'Idempotency-Key': key });
const project = (name: string) => ({
  name,
  currency: 'EUR',
  templateVersion: '2.0',
  scenario: { name: 'Baseline', content: sampleScenario() },
});
const projectsNamed = async (name: string) =>
  (await api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name]))[0].n as number;

beforeAll(async () => {
  await identity.start();
  api = await startStandardsApi({ IDENTITY_URL: identity.url, IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef' });
});
afterAll(async () => {
  await api.close();
  await identity.stop();
});

describe('a claim whose record goes away between its insert and its read', () => {
  it('claims the key again when the record it met was released before it could read it: the request is written, not refused', async () => {
    // Another request with this key held a claim when this one inserted, and released it (it failed) before this one read it.
    const query = api.dataSource.query.bind(api.dataSource);
    let interleaved = false;
    api.dataSource.query = (async (sql: string, parameters?: unknown[]) => {
      if (interleaved || !sql.startsWith('INSERT INTO idempotency_record')) return query(sql, parameters);
      interleaved = true;
      const [scope, key, requestHash] = parameters as string[];
      await query('INSERT INTO idempotency_record (scope, idempotency_key, request_hash, claim_id) VALUES ($1, $2, $3, $4)', [
        scope,
        key,
        requestHash,
        randomUUID(),
      ]);
      const inserted: unknown = await query(sql, parameters);
      await query('DELETE FROM idempotency_record WHERE scope = $1 AND idempotency_key = $2', [scope, key]);
      return inserted;
    }) as typeof api.dataSource.query;
    try {
      const first = await request(api.server).post('/api/v2/split-projects').set(headers('released-1')).send(project('Idem Released'));
      expect(interleaved).toBe(true);
      expect(first.status).toBe(201);
      const retry = await request(api.server).post('/api/v2/split-projects').set(headers('released-1')).send(project('Idem Released'));
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    } finally {
      api.dataSource.query = query;
    }
    expect(await projectsNamed('Idem Released')).toBe(1);
  });
});
