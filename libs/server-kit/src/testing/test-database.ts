import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where a test's service keeps its data: a fresh database of its own, dropped afterwards. */
export interface TestDatabase {
  /** Environment for the service under test: DATABASE_URL, or DATA_DIR=memory:// (embedded PGlite). */
  env: Record<string, string>;
  /** `server` when DATABASE_URL names a PostgreSQL server, `embedded` otherwise. */
  kind: 'server' | 'embedded';
  /**
   * Ends every server connection the service under test holds, as a failing network would. Only a
   * `server` database can be reached from outside the service; the embedded one's connections are
   * dropped in the server-kit's own embedded-session tests.
   */
  dropConnections(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL set (CI, or a developer's PostgreSQL), creates a throwaway database on that
 * server; without, the service under test runs on an in-memory PGlite.
 */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) return { env: { DATA_DIR: 'memory://' }, kind: 'embedded', dropConnections: async () => 0, drop: async () => undefined };
  const name = `${prefix.replace(/[^a-z0-9]/g, '_')}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    kind: 'server',
    dropConnections: () =>
      withAdmin(serverUrl, (client) =>
        // With a timeout the call returns once each backend has exited (PostgreSQL 14+), not when it was
        // signalled: a request sent right after the drop meets no connection that is still dying.
        client.query<{ ended: boolean }>('SELECT pg_terminate_backend(pid, 10000) AS ended FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]),
      ).then((result) => result.rows.filter((row) => row.ended).length),
    drop: () => withAdmin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
