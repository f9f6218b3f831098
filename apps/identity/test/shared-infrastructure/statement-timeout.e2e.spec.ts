// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): a lock held by another session
// is what a request waits on there (PGlite has one session, and does not enforce statement_timeout).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { startIdentity, type RunningIdentity } from '../support/identity-app';

const BOUND_MS = 1_000;
let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity({ DATABASE_STATEMENT_TIMEOUT_MS: String(BOUND_MS) });
}, 120_000);
afterAll(() => identity.close());

const organizationsNamed = async (name: string) =>
  (await identity.dataSource.query('SELECT count(*)::int AS n FROM organization WHERE name = $1', [name]))[0].n as number;

describe('a request whose statement waits on a lock another session holds', () => {
  it('answers 503 database.timed_out with Retry-After within the bound, writes nothing, and is served once the lock goes', async () => {
    const name = `Locked ${randomUUID()}`;
    const platform = { Authorization: `Bearer ${identity.platformKey}` };
    const holder = new pg.Client({ connectionString: identity.database.env['DATABASE_URL'] });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE organization IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const [list, create] = await Promise.all([
        request(identity.server).get('/v1/organizations').set(platform).timeout(30_000),
        request(identity.server).post('/v1/organizations').set(platform).send({ name }).timeout(30_000),
      ]);
      expect(Date.now() - started).toBeLessThan(4 * BOUND_MS);
      for (const answer of [list, create]) {
        expect([answer.status, answer.headers['retry-after'], answer.body.domainCode]).toEqual([503, '1', 'database.timed_out']);
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await organizationsNamed(name)).toBe(0);
    await request(identity.server).post('/v1/organizations').set(platform).send({ name }).expect(201);
    expect(await organizationsNamed(name)).toBe(1);
  }, 60_000);
});
