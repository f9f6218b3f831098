// What the PostgreSQL race specs wait on: requests queued behind a row or lock another connection holds.

/** Anything that runs a query: the app's DataSource (its pool), or a QueryRunner of its own. */
interface Queryable {
  query(text: string): Promise<{ n: number }[]>;
}

/**
 * How many connections of this database wait for a lock. Ask on a connection outside any transaction (one inside a
 * transaction sees the activity as it was when it first read it), and on one of its own when the pool's may all wait.
 */
export async function waitingForLocks(connection: Queryable): Promise<number> {
  const [waiting] = await connection.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
  );
  return waiting!.n;
}

/** Resolves once `condition` holds; fails naming `what` after 30 s. */
export async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
