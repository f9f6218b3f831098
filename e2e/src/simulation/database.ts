// SQL over a service's database for the simulation: fresh connections for each use, so ending the
// service's connections from the server (a fault) never leaves the checker holding a dead one.
import pg from 'pg';

/** The checker's connections say who they are, so a fault that ends the service's connections spares them. */
export const CHECKER_APPLICATION_NAME = 'stdreg-simulation-checker';

export type Query = <T = Record<string, unknown>>(text: string, parameters?: unknown[]) => Promise<T[]>;

/** A small pool, so the operations of a racing step can read at the same time. */
export async function withDatabase<T>(url: string, work: (query: Query) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, application_name: CHECKER_APPLICATION_NAME, max: 4 });
  try {
    return await work(async <R>(text: string, parameters: unknown[] = []) => (await pool.query(text, parameters)).rows as R[]);
  } finally {
    await pool.end();
  }
}
