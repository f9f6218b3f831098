import type pg from 'pg';
import type { DataSource } from 'typeorm';

/** The DataSource's own pg pool (TypeORM types its PostgreSQL driver's pool as `any`). */
export const pool = (dataSource: DataSource) => (dataSource.driver as unknown as { master: pg.Pool }).master;

/** Waits until the pool (opened with a 100 ms idle timeout) has closed every connection. */
export async function waitUntilPoolIsEmpty(dataSource: DataSource): Promise<void> {
  for (let waited = 0; pool(dataSource).totalCount > 0; waited += 20) {
    if (waited > 10_000) throw new Error('the pool kept its connection past ten seconds of its 100 ms idle timeout');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
