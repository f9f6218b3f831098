import type { EntityManager } from 'typeorm';

/**
 * The database's clock at the moment of the query (not its transaction's start, which `now()` is): the one
 * clock every replica reads for a decision that must not depend on whose clock is right.
 */
export const DATABASE_CLOCK = 'SELECT clock_timestamp() AS now';

/** Reads DATABASE_CLOCK in `manager`'s transaction (after the locks it holds). */
export async function databaseNow(manager: EntityManager): Promise<Date> {
  const rows: { now: Date | string }[] = await manager.query(DATABASE_CLOCK);
  return new Date(rows[0]!.now);
}
