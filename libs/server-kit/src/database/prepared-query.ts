import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs a named prepared statement on the DataSource's own pg pool: each pooled connection parses and
 * plans it once, later calls only bind and execute. For the few reads on every request's hot path (a
 * key lookup) and readiness; everything else goes through `dataSource.query`.
 *
 * A pooled connection the server ended while it sat idle (terminated, a restart, a failover) stays in
 * the pool until its end reaches this process; a read handed that connection in the meantime fails
 * although the database is fine. The read is run once more, on another connection: it changed nothing.
 */
export async function preparedQuery<Row>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<Row[]> {
  // TypeORM types its PostgreSQL driver's pool as `any`; with the `pg` driver it is a pg.Pool.
  const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  try {
    return (await pool.query({ name, text, values })).rows as Row[];
  } catch (error) {
    if (!connectionLost(error)) throw error;
    return (await pool.query({ name, text, values })).rows as Row[];
  }
}

/** SQLSTATEs of a server ending the session: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03']);

/** Whether a query failed because its connection was gone, rather than because of the query. */
export function connectionLost(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SESSION_ENDED.has(code) || code === 'ECONNRESET' || code === 'EPIPE')) return true;
  return typeof message === 'string' && /^(Connection terminated|Client has encountered a connection error)/.test(message);
}
