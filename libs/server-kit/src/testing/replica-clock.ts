/** The one place PGlite, running in this process, reads the time (its C library's clock, through Emscripten). */
const EMBEDDED_DATABASE_FRAME = /@electric-sql[\\/]pglite[\\/]/;

/**
 * Runs `body` as on a replica whose clock is `skewMs` ahead of the database's (behind when negative): this
 * process's `Date.now` is moved, except where an embedded PGlite asks for the time, so that the database keeps
 * the true clock as a server in its own process would.
 */
export async function withReplicaClockSkewed<T>(skewMs: number, body: () => Promise<T>): Promise<T> {
  const trueNow = Date.now;
  Date.now = () => (EMBEDDED_DATABASE_FRAME.test(new Error().stack?.split('\n')[2] ?? '') ? trueNow() : trueNow() + skewMs);
  try {
    return await body();
  } finally {
    Date.now = trueNow;
  }
}
