// Needs a PostgreSQL server: its pool has ten connections, which the test holds as queries the database never
// answered would (the embedded pool's one connection serves every query in turn, and has no such bound).
import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import request from 'supertest';
import { sampleScenario } from '../support/sample-scenario';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
const POOL_SIZE = 10;
/** Far past the pool's wait: a request still waiting then would have waited for as long as the connections were held. */
const GIVE_UP_MS = 30_000;
let running: ProtectedApi;
const member = credentialHeaders(`member-of:${ORG}`, ORG);
const projectsNamed = async (name: string) =>
  (await running.api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name]))[0].n as number;

beforeAll(async () => {
  running = await startProtectedApi();
});
afterAll(async () => {
  await running.close();
});

describe('requests while every pooled connection is held', () => {
  it('answer 503 service_unavailable with Retry-After instead of waiting, and a keyed write retried then writes once', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const draft = {
      name: `Held pool ${randomUUID()}`,
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    };
    const keyed = { ...member, 'Idempotency-Key': `held-${randomUUID()}` };

    const held: QueryRunner[] = [];
    try {
      for (let index = 0; index < POOL_SIZE; index++) {
        const runner = running.api.dataSource.createQueryRunner();
        await runner.connect();
        held.push(runner);
      }
      const [read, write] = await Promise.all([
        request(running.api.server).get(`/api/v2/split-projects/${projectId}`).set(member).timeout(GIVE_UP_MS),
        request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).timeout(GIVE_UP_MS),
      ]);
      for (const answer of [read, write]) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.body).toMatchObject({ code: 'service_unavailable', detail: expect.stringContaining('Idempotency-Key') });
      }
    } finally {
      await Promise.all(held.map((runner) => runner.release()));
    }

    expect(await projectsNamed(draft.name)).toBe(0);
    const written = await request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).expect(201);
    const replayed = await request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).expect(201);
    expect(replayed.body).toEqual(written.body);
    expect(await projectsNamed(draft.name)).toBe(1);
    await request(running.api.server).get(`/api/v2/split-projects/${projectId}`).set(member).expect(200);
  }, 60_000);
});
