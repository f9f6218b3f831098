// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the revocation's (or deletion's)
// transaction and the link's must run side by side, which an embedded database's single connection cannot.
import request from 'supertest';
import { startIdentity, type RunningIdentity } from '../support/identity-app';
import { createMirrorRecord, registerPartnerApp, signinEnv, type PartnerApp } from '../support/signin-fixture';
import { generateSigningKey } from '../../src/platform/secrets/oidc-secrets';
import { until, waitingForLocks } from '../support/lock-waits';

let identity: RunningIdentity;

beforeAll(async () => {
  identity = await startIdentity(signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]));
});
afterAll(async () => {
  await identity.close();
});

async function partnerWithUser(): Promise<{ partner: PartnerApp; keyId: string; mirrorId: string; uid: string }> {
  const key = await identity.newAppKey();
  const partner = await registerPartnerApp(identity, ['https://portal.example/callback'], key);
  const user = await createMirrorRecord(identity, partner);
  return { partner, keyId: key.key.id, mirrorId: user.id, uid: user.uid };
}

/**
 * Asks for a link while `change` (a revocation or a deletion, its voiding last) is uncommitted in another
 * transaction: the link's transaction must wait for it, then issue nothing. Answers the link request's status.
 */
async function issueDuring(change: string[], params: unknown[], mirrorId: string, key: string): Promise<number> {
  const other = identity.dataSource.createQueryRunner();
  await other.connect();
  await other.startTransaction();
  try {
    for (const statement of change.slice(0, -1)) await other.query(statement, params);
    const asked = request(identity.server)
      .post(`/v1/users/${mirrorId}/password-setup`)
      .set({ Authorization: `Bearer ${key}` })
      .then();
    for (const deadline = Date.now() + 30_000; ;) {
      const [waiting] = await identity.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      if (waiting.n > 0) break;
      if (Date.now() > deadline) throw new Error('the link’s transaction never waited for the change');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await other.query(change.at(-1)!, params);
    await other.commitTransaction();
    return (await asked).status;
  } finally {
    await other.release();
  }
}

/** The advisory lock key the test's trigger waits on. */
const HELD_AFTER_LINK = 7_340_001;

const VOID_LINKS = 'UPDATE password_setup SET expires_at = now() WHERE %s = $1 AND used_at IS NULL AND expires_at > now()';

it('issues no link with a key whose revocation commits while the link is being issued', async () => {
  const { partner, keyId, mirrorId, uid } = await partnerWithUser();
  const status = await issueDuring(
    [
      'SELECT 1 FROM api_key WHERE id = $1 FOR UPDATE',
      'UPDATE api_key SET revoked_at = now() WHERE id = $1',
      VOID_LINKS.replace('%s', 'issued_by_key'),
    ],
    [keyId],
    mirrorId,
    partner.appKey,
  );
  expect(status).toBe(401);
  expect(await identity.dataSource.query('SELECT 1 FROM password_setup WHERE uid = $1 AND expires_at > now()', [uid])).toHaveLength(0);
});

it('issues no link for a record of an app whose deletion commits while the link is being issued', async () => {
  const { partner, mirrorId, uid } = await partnerWithUser();
  const status = await issueDuring(
    ['UPDATE registered_app SET deleted_at = now() WHERE registry_id = $1', VOID_LINKS.replace('%s', 'registry_id')],
    [partner.registryId],
    mirrorId,
    partner.appKey,
  );
  expect(status).toBe(404);
  expect(await identity.dataSource.query('SELECT 1 FROM password_setup WHERE uid = $1 AND expires_at > now()', [uid])).toHaveLength(0);
});

it('leaves one usable link of a user when two are asked for at once: the later one ends the earlier', async () => {
  const { partner, mirrorId, uid } = await partnerWithUser();
  const ask = () =>
    request(identity.server)
      .post(`/v1/users/${mirrorId}/password-setup`)
      .set({ Authorization: `Bearer ${partner.appKey}` })
      .then();
  // Each link's transaction is held open right after it has written its link: a trigger of this test's database waits
  // there for an advisory lock held here.
  await identity.dataSource.query(`CREATE FUNCTION hold_after_link() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_advisory_xact_lock_shared(${HELD_AFTER_LINK}); RETURN NEW; END $$`);
  await identity.dataSource.query(
    'CREATE TRIGGER hold_after_link AFTER INSERT ON password_setup FOR EACH ROW EXECUTE FUNCTION hold_after_link()',
  );
  const holder = identity.dataSource.createQueryRunner();
  await holder.connect();
  let answers: { status: number }[];
  try {
    await holder.query('SELECT pg_advisory_lock($1)', [HELD_AFTER_LINK]);
    const asked = [ask(), ask()];
    await until(async () => (await waitingForLocks(identity.dataSource)) >= 2, 'both link requests wait');
    await holder.query('SELECT pg_advisory_unlock($1)', [HELD_AFTER_LINK]);
    answers = await Promise.all(asked);
  } finally {
    await holder.release();
    await identity.dataSource.query('DROP TRIGGER hold_after_link ON password_setup');
    await identity.dataSource.query('DROP FUNCTION hold_after_link');
  }
  expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
  expect(await identity.dataSource.query('SELECT 1 FROM password_setup WHERE uid = $1 AND expires_at > now()', [uid])).toHaveLength(1);
});
