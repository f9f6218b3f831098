import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { databaseReadinessCheck, openDatabase, preparedQuery, type DatabaseHandle } from '../src/database';
import { pool, waitUntilPoolIsEmpty } from './support/pool';

// The embedded server runs every connection in PGlite's one session. Whatever one connection leaves
// there must not meet the next, however the first one ended.

async function leaveSessionState(client: pg.ClientBase): Promise<void> {
  await client.query({ name: 'leaky_statement', text: 'SELECT 1 AS one' });
  await client.query("SET application_name = 'left-behind'");
  await client.query('CREATE TEMPORARY TABLE left_behind (id int)');
}

async function expectCleanSession(dataSource: DataSource): Promise<void> {
  await expect(preparedQuery(dataSource, 'leaky_statement', 'SELECT 1 AS one', [])).resolves.toEqual([{ one: 1 }]);
  await expect(dataSource.query('SHOW application_name')).resolves.toEqual([{ application_name: '' }]);
  await expect(dataSource.query("SELECT to_regclass('pg_temp.left_behind') AS relation")).resolves.toEqual([{ relation: null }]);
  await expect(dataSource.query('SELECT count(*)::int AS rows FROM survivor')).resolves.toEqual([{ rows: 1 }]);
}

describe('the embedded database between connections', () => {
  let database: DatabaseHandle;

  // One database for the file: a PGlite start (initdb included) takes a minute on a busy two-core
  // machine. Each test starts once the pool has closed the connection the test before it used.
  beforeAll(async () => {
    database = await openDatabase({ service: 'session', dataDir: 'memory://', entities: [], migrations: [], poolIdleTimeoutMs: 100 });
    await database.dataSource.query('CREATE TABLE survivor (id int)');
    await database.dataSource.query('INSERT INTO survivor VALUES (1)');
  }, 180_000);
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await waitUntilPoolIsEmpty(database.dataSource);
  });

  it('starts a connection after an idle timeout from a clean session', async () => {
    const client = await pool(database.dataSource).connect();
    await leaveSessionState(client);
    client.release();
    await waitUntilPoolIsEmpty(database.dataSource);

    await expectCleanSession(database.dataSource);
  });

  it('starts a connection after one that failed from a clean session', async () => {
    const client = await pool(database.dataSource).connect();
    await leaveSessionState(client);
    client.release(new Error('the caller gave this connection up'));

    await expectCleanSession(database.dataSource);
  });

  it('starts a connection after one whose socket dropped under a request inside a transaction from a clean session', async () => {
    const client = await pool(database.dataSource).connect();
    client.on('error', () => undefined);
    await leaveSessionState(client);
    await client.query('BEGIN');
    await client.query('INSERT INTO survivor VALUES (2)');
    const underway = client.query('SELECT count(*) FROM survivor');
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await expect(underway).rejects.toThrow();
    client.release(true);

    await expectCleanSession(database.dataSource);
  });

  it('is not ready when the pool cannot run the named statements its requests use', async () => {
    const readiness = databaseReadinessCheck(database.dataSource);
    const client = await pool(database.dataSource).connect();
    await client.query('PREPARE server_kit_readiness AS SELECT 2');
    client.release();

    await expect(readiness.check()).rejects.toThrow(/already exists/);
  });
});
