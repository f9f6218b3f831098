// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the revocation's (or deletion's)
// transaction and the link's must run side by side, which an embedded database's single connection cannot.
import request from 'supertest';
import { startIdentity, type RunningIdentity } from '../support/identity-app';
import { createMirrorRecord, registerPartnerApp, signinEnv, type PartnerApp } from '../support/signin-fixture';
import { generateSigningKey } from '../../src/platform/secrets/oidc-secrets';

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
