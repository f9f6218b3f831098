// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the purges must wait on a row
// lock another connection holds, which an embedded database's single connection cannot.
import type { NestExpressApplication } from '@nestjs/platform-express';
import { JsonLogger } from '@stdreg/server-kit';
import { startIdentity, startReplica, type RunningIdentity } from '../support/identity-app';
import { signinEnv, userWithPasswordLink } from '../support/signin-fixture';
import { generateSigningKey } from '../../src/platform/secrets/oidc-secrets';

const env = signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]);
let identity: RunningIdentity;

beforeAll(async () => {
  identity = await startIdentity(env);
});
afterAll(async () => {
  await identity?.close();
});

async function until(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A record that ended two days ago, for one purge to remove: its table, and the condition that finds it. */
interface Ended {
  table: string;
  where: string;
  params: unknown[];
}

async function endedPasswordLink(): Promise<Ended> {
  const uid = await userWithPasswordLink(identity);
  await identity.dataSource.query(`UPDATE password_setup SET used_at = now() - interval '2 days' WHERE uid = $1`, [uid]);
  return { table: 'password_setup', where: 'uid = $1', params: [uid] };
}

async function endedSigninRecord(): Promise<Ended> {
  await identity.dataSource.query(
    `INSERT INTO oidc_model (model, id, payload, expires_at) VALUES ('Session', 'ended', '{}', now() - interval '2 days')`,
  );
  return { table: 'oidc_model', where: `model = 'Session' AND id = $1`, params: ['ended'] };
}

it.each([
  ['ended password links', endedPasswordLink],
  ['expired sign-in records', endedSigninRecord],
])('waits, when shutting down, for the purge of %s under way, which commits before the database closes', async (_purge, ended) => {
  const { table, where, params } = await ended();
  const db = identity.dataSource;
  const locker = db.createQueryRunner();
  await locker.connect();
  let replica: NestExpressApplication | undefined;
  let closing: Promise<unknown> | undefined;
  try {
    await locker.startTransaction();
    await locker.query(`SELECT 1 FROM ${table} WHERE ${where} FOR UPDATE`, params);

    // A replica purges at once when it starts: its purge of the table waits for the row the test holds.
    replica = await startReplica(identity, env);
    const failures: string[] = [];
    const logger = replica.get(JsonLogger);
    const event = logger.event.bind(logger);
    logger.event = (level, message, fields, context) => {
      if (level === 'warn' || level === 'error') failures.push(`${message}: ${String(fields['error'])}`);
      event(level, message, fields, context);
    };
    await until(async () => {
      const waiting: unknown[] = await db.query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE $1`,
        [`%DELETE FROM ${table} %`],
      );
      return waiting.length === 1;
    }, 'the purge to wait for the locked row');

    let closed = false;
    closing = replica.close().then(() => (closed = true));
    // A shutdown that did not wait for the purge would close the database under it within this time.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(closed).toBe(false);

    await locker.commitTransaction();
    await closing;
    expect(failures).toEqual([]);
    expect(await db.query(`SELECT 1 FROM ${table} WHERE ${where}`, params)).toHaveLength(0);
  } finally {
    if (locker.isTransactionActive) await locker.rollbackTransaction();
    await locker.release();
    await (closing ?? replica?.close());
  }
});
