// Needs a PostgreSQL server: a lock held by another session is what a request waits on there (PGlite has one
// session, and does not enforce statement_timeout).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { sampleScenario } from '../support/sample-scenario';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from '../support/protected-api';

const ORG = randomUUID();
const BOUND_MS = 1_000;
let running: ProtectedApi;
const member = credentialHeaders(`member-of:${ORG}`, ORG);
const projectsNamed = async (name: string) =>
  (await running.api.dataSource.query('SELECT count(*)::int AS n FROM split_project WHERE name = $1', [name]))[0].n as number;

beforeAll(async () => {
  running = await startProtectedApi({ DATABASE_STATEMENT_TIMEOUT_MS: String(BOUND_MS) });
});
afterAll(async () => {
  await running.close();
});

describe('a request whose statement waits on a lock another session holds', () => {
  it('answers 503 database.timed_out with Retry-After within the bound, writes nothing, and the retry writes once', async () => {
    const { projectId } = await activatedProject(running.api, ORG);
    const draft = {
      name: `Locked table ${randomUUID()}`,
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    };
    const keyed = { ...member, 'Idempotency-Key': `locked-${randomUUID()}` };

    const holder = new pg.Client({ connectionString: running.api.database.env['DATABASE_URL'] });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE split_project IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const [read, write] = await Promise.all([
        request(running.api.server).get(`/api/v2/split-projects/${projectId}`).set(member).timeout(30_000),
        request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).timeout(30_000),
      ]);
      const elapsed = Date.now() - started;
      for (const answer of [read, write]) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.body).toMatchObject({ code: 'service_unavailable', domainCode: 'database.timed_out' });
      }
      // Each request waits at most the bound per statement (and the pool's 5 s for a connection, not needed here).
      expect(elapsed).toBeLessThan(4 * BOUND_MS);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    expect(await projectsNamed(draft.name)).toBe(0);
    const written = await request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).expect(201);
    const replayed = await request(running.api.server).post('/api/v2/split-projects').set(keyed).send(draft).expect(201);
    expect(replayed.body).toEqual(written.body);
    expect(await projectsNamed(draft.name)).toBe(1);
  }, 60_000);
});
