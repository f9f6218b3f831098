/**
 * The database's clock at the moment of the query (not its transaction's start, which `now()` is): the one
 * clock every replica reads for a decision that must not depend on whose clock is right.
 */
export const DATABASE_CLOCK = 'SELECT clock_timestamp() AS now';
