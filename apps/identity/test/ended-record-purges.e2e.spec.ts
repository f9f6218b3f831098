import request from 'supertest';
import { JsonLogger } from '@stdreg/server-kit';
import { startIdentity, type RunningIdentity } from './support/identity-app';
import { signinEnv, userWithPasswordLink } from './support/signin-fixture';
import { generateSigningKey } from '../src/platform/secrets/oidc-secrets';

let identity: RunningIdentity;
const warnings: { message: string; error: string; context?: string }[] = [];

beforeAll(async () => {
  identity = await startIdentity({ ...signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]), PURGE_INTERVAL_MS: '50' });
  const logger = identity.app.get(JsonLogger);
  const event = logger.event.bind(logger);
  logger.event = (level, message, fields, context) => {
    if (level === 'warn') warnings.push({ message, error: String(fields['error']), ...(context ? { context } : {}) });
    event(level, message, fields, context);
  };
});
afterAll(async () => {
  await identity?.close();
});

async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await probe());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FAILURES = [
  { message: 'purging ended password links failed', context: 'PasswordLinks', error: /relation "password_setup" does not exist/ },
  { message: 'purging expired sign-in records failed', context: 'Oidc', error: /relation "oidc_model" does not exist/ },
];

it('logs a purge that fails, and purges at a later interval once it can, the service still up', async () => {
  const uid = await userWithPasswordLink(identity);
  const db = identity.dataSource;

  // Both tables away: every purge fails until they are back.
  await db.query('ALTER TABLE password_setup RENAME TO password_setup_away');
  await db.query('ALTER TABLE oidc_model RENAME TO oidc_model_away');
  await db.query(`UPDATE password_setup_away SET used_at = now() - interval '2 days' WHERE uid = $1`, [uid]);
  await db.query(
    `INSERT INTO oidc_model_away (model, id, payload, expires_at) VALUES ('Session', 'ended', '{}', now() - interval '2 days')`,
  );
  await until(
    () =>
      FAILURES.every((failure) =>
        warnings.some(
          (warning) => warning.message === failure.message && warning.context === failure.context && failure.error.test(warning.error),
        ),
      ),
    'both purges to fail, each logged with its cause',
  );

  await db.query('ALTER TABLE password_setup_away RENAME TO password_setup');
  await db.query('ALTER TABLE oidc_model_away RENAME TO oidc_model');
  await until(async () => {
    const [left] = await db.query(
      `SELECT (SELECT count(*) FROM password_setup WHERE uid = $1)::int + (SELECT count(*) FROM oidc_model WHERE id = 'ended')::int AS n`,
      [uid],
    );
    return left.n === 0;
  }, 'the next purges to remove what ended');
  await request(identity.server).get('/readyz').expect(200);
});
