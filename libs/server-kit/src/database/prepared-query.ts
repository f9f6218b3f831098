import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs a named prepared statement on the DataSource's own pg pool: each pooled connection parses and
 * plans it once, later calls only bind and execute. For the few queries on every request's hot path
 * (a key lookup); everything else goes through `dataSource.query`.
 */
export async function preparedQuery<Row>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<Row[]> {
  // TypeORM types its PostgreSQL driver's pool as `any`; with the `pg` driver it is a pg.Pool.
  const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  const result = await pool.query({ name, text, values });
  return result.rows as Row[];
}
