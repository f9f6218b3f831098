// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): two replicas' first sightings of one
// document client must be in flight side by side, which an embedded database's single connection cannot hold.
import { randomBytes } from 'node:crypto';
import { AuditService } from '../../src/platform/audit-trail/audit.service';
import { generateSigningKey } from '../../src/platform/secrets/oidc-secrets';
import { auditDocumentClients } from '../../src/sign-in/oidc/provider-audit';
import { startIdentity, type RunningIdentity } from '../support/identity-app';
import { until, waitingForLocks } from '../support/lock-waits';
import { signinEnv } from '../support/signin-fixture';

let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity(signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]));
});
afterAll(() => identity?.close());

/** The advisory lock key the planted trigger waits on: an entry's insert is held, uncommitted, while the test holds it. */
const HELD_AT_INSERT = 7_340_007;

it("writes one entry when two replicas first see a document client at once, the second waiting for the first's commit", async () => {
  const clientId = `https://agents.example/${randomBytes(4).toString('hex')}.json`;
  const holder = identity.dataSource.createQueryRunner();
  await holder.connect();
  await holder.query(`CREATE FUNCTION test_hold_register() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.target = '${clientId}' THEN PERFORM pg_advisory_xact_lock_shared(${HELD_AT_INSERT}); END IF;
      RETURN NEW;
    END $$`);
  await holder.query('CREATE TRIGGER test_hold_register BEFORE INSERT ON audit_entry FOR EACH ROW EXECUTE FUNCTION test_hold_register()');
  try {
    await holder.query('SELECT pg_advisory_lock($1)', [HELD_AT_INSERT]);
    const audit = identity.app.get(AuditService);
    const client = { clientId, clientName: 'Desk Agent', redirectUris: ['http://127.0.0.1/callback'] };
    const seen = [auditDocumentClients(audit)(undefined, client), auditDocumentClients(audit)(undefined, client)];
    // Both in flight: one held at its insert, the other waiting for it (or, without the lock on the pair, held at its own insert).
    await until(async () => (await waitingForLocks(holder)) >= 2, 'both sightings wait');
    await holder.query('SELECT pg_advisory_unlock($1)', [HELD_AT_INSERT]);
    await Promise.all(seen);
  } finally {
    await holder.query('DROP TRIGGER test_hold_register ON audit_entry');
    await holder.query('DROP FUNCTION test_hold_register()');
    await holder.release();
  }
  const entries = await identity.dataSource.query(`SELECT 1 FROM audit_entry WHERE action = 'clients.register' AND target = $1`, [
    clientId,
  ]);
  expect(entries).toHaveLength(1);
});
