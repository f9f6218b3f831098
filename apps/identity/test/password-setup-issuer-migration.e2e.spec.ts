import { createHash } from 'node:crypto';
import request from 'supertest';
import { startIdentity, undoMigrationsThrough, type RunningIdentity } from './support/identity-app';
import { createMirrorRecord, registerPartnerApp, signinEnv, type PartnerApp } from './support/signin-fixture';
import { generateSigningKey } from '../src/platform/secrets/oidc-secrets';

// The migration that records who issued each password link, on links written before it (the previous schema).
let identity: RunningIdentity;

beforeAll(async () => {
  identity = await startIdentity(signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]));
});
afterAll(async () => {
  await identity?.close();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function partnerWithUsers(count: number): Promise<{ partner: PartnerApp; keyId: string; uids: string[] }> {
  const key = await identity.newAppKey();
  const partner = await registerPartnerApp(identity, ['https://portal.example/callback'], key);
  const uids: string[] = [];
  for (let i = 0; i < count; i++) uids.push((await createMirrorRecord(identity, partner)).uid);
  return { partner, keyId: key.key.id, uids };
}

const prefixOf = async (keyId: string): Promise<string> =>
  (await request(identity.server).get(`/v1/keys/${keyId}`).set(bearer(identity.platformKey)).expect(200)).body.prefix;

it('gives earlier links their issuing key by the secret’s prefix, voids those of revoked keys and deleted apps, and drops unknown ones', async () => {
  const kept = await partnerWithUsers(3);
  const revoked = await partnerWithUsers(1);
  const deleted = await partnerWithUsers(1);
  const rotatedAwayPrefix = await prefixOf(kept.keyId);
  await request(identity.server).post(`/v1/keys/${kept.keyId}/rotate`).set(bearer(identity.platformKey)).send({}).expect(200);
  const prefixes = { kept: await prefixOf(kept.keyId), revoked: await prefixOf(revoked.keyId), deleted: await prefixOf(deleted.keyId) };

  await undoMigrationsThrough(identity.dataSource, 'PasswordSetupIssuer1763900001200');
  const insert = (name: string, uid: string, createdBy: string, registryId: string, usedAt: string | null = null) =>
    identity.dataSource.query(
      `INSERT INTO password_setup (token_hash, uid, login_email, created_by, expires_at, registry_id, used_at)
       VALUES ($1, $2, $3, $4, now() + interval '1 day', $5, $6::timestamptz)`,
      [createHash('sha256').update(name).digest(), uid, `${name}@example.com`, createdBy, registryId, usedAt],
    );
  await insert('live', kept.uids[0]!, prefixes.kept, kept.partner.registryId);
  await insert('before-rotation', kept.uids[1]!, rotatedAwayPrefix, kept.partner.registryId);
  await insert('spent', kept.uids[2]!, prefixes.kept, kept.partner.registryId, '2026-01-01T00:00:00Z');
  await insert('of-revoked-key', revoked.uids[0]!, prefixes.revoked, revoked.partner.registryId);
  await insert('of-deleted-app', deleted.uids[0]!, prefixes.deleted, deleted.partner.registryId);
  await insert('unknown-issuer', kept.uids[0]!, 'no-such-prefix', kept.partner.registryId);
  await identity.dataSource.query('UPDATE api_key SET revoked_at = now() WHERE id = $1', [revoked.keyId]);
  await identity.dataSource.query('UPDATE registered_app SET deleted_at = now() WHERE registry_id = $1', [deleted.partner.registryId]);

  await identity.dataSource.runMigrations();

  const rows = await identity.dataSource.query(
    `SELECT split_part(login_email, '@', 1) AS name, issued_by_key AS "issuedBy", expires_at > now() AS usable, used_at IS NOT NULL AS spent
       FROM password_setup ORDER BY name`,
  );
  expect(rows).toEqual([
    { name: 'before-rotation', issuedBy: kept.keyId, usable: true, spent: false },
    { name: 'live', issuedBy: kept.keyId, usable: true, spent: false },
    { name: 'of-deleted-app', issuedBy: deleted.keyId, usable: false, spent: false },
    { name: 'of-revoked-key', issuedBy: revoked.keyId, usable: false, spent: false },
    { name: 'spent', issuedBy: kept.keyId, usable: true, spent: true },
  ]);

  await request(identity.server).post(`/v1/keys/${kept.keyId}/revoke`).set(bearer(identity.platformKey)).expect(200);
  const [audit] = await identity.dataSource.query(`SELECT detail FROM audit_entry WHERE action = 'keys.revoke' AND target = $1`, [
    kept.keyId,
  ]);
  expect(audit.detail).toEqual({ passwordLinksVoided: 2 });
});
