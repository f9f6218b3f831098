import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SERVICE_TOKEN, startIdentity, undoMigrationsThrough, type RunningIdentity } from './support/identity-app';

// Two organizations against each other in the audit log: each one's key reads its own entries, never the other's;
// the platform reads both, and one organization's alone when it asks.
let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

interface Entry {
  id: string;
  action: string;
  target: string | null;
  organizationId: string | null;
  actorId: string;
}

interface Organization {
  id: string;
  key: string;
  keyId: string;
  registryId: string;
  userId: string;
  uid: string;
  roleBindingId: string;
}

let a: Organization;
let b: Organization;

/** An organization as the platform makes one, with what its key does: an app, a user, a sync, a decision; and a role the platform grants there. */
async function organizationAtWork(): Promise<Organization> {
  const issued = await identity.newAppKey();
  const { key, registryId } = await identity.newRegistry(issued.secret);
  const user = await request(identity.server)
    .post('/v1/users')
    .set(bearer(key))
    .send({
      registryId,
      externalId: `x-${randomBytes(4).toString('hex')}`,
      email: `p-${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: true,
      displayName: 'Someone',
      locale: 'en',
    })
    .expect(201);
  await request(identity.server)
    .post('/v1/sync')
    .set(bearer(key))
    .send({
      registryId,
      records: [
        {
          externalId: `s-${randomBytes(4).toString('hex')}`,
          email: `s-${randomBytes(4).toString('hex')}@example.com`,
          emailVerified: false,
          displayName: 'Synced',
          locale: 'en',
        },
      ],
    })
    .expect(200);
  const role = await request(identity.server)
    .post('/v1/role-bindings')
    .set(bearer(identity.platformKey))
    .send({ uid: user.body.uid, role: 'project-owner', organizationId: issued.organizationId })
    .expect(201);
  await request(identity.server)
    .post('/v1/decisions')
    .set(bearer(SERVICE_TOKEN))
    .send({
      credential: { kind: 'api_key', value: key },
      action: 'rule-version:create',
      resource: { organizationId: issued.organizationId },
    })
    .expect(200);
  return {
    id: issued.organizationId,
    key,
    keyId: issued.key.id,
    registryId,
    userId: user.body.id,
    uid: user.body.uid,
    roleBindingId: role.body.id,
  };
}

async function readAll(key: string, query: Record<string, string> = {}): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { items: Entry[]; nextCursor: string | null } } = await request(identity.server)
      .get('/v1/audit')
      .query({ limit: 100, ...query, ...(cursor ? { cursor } : {}) })
      .set(bearer(key))
      .expect(200);
    entries.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** What each organization's entries must hold: who made it, its key, app, users, sync, role and the decision on its resource. */
const expectedOf = (organization: Organization) =>
  expect.arrayContaining([
    expect.objectContaining({ action: 'organizations.create', target: organization.id }),
    expect.objectContaining({ action: 'keys.create', target: organization.keyId }),
    expect.objectContaining({ action: 'apps.register', target: organization.registryId }),
    expect.objectContaining({ action: 'users.create', target: organization.userId }),
    expect.objectContaining({ action: 'sync.apply', target: organization.registryId }),
    expect.objectContaining({ action: 'roles.grant', target: organization.roleBindingId }),
    expect.objectContaining({ action: 'decision:rule-version:create', target: organization.id, outcome: 'denied' }),
  ]);

beforeAll(async () => {
  identity = await startIdentity();
  a = await organizationAtWork();
  b = await organizationAtWork();
});
afterAll(() => identity.close());

describe("an organization's audit log", () => {
  it("shows each organization's key its own entries, the platform's acts on it included, and none of the other's", async () => {
    for (const [own, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const seen = await readAll(own.key);
      expect(seen).toEqual(expectedOf(own));
      expect(seen.every((entry) => entry.organizationId === own.id)).toBe(true);
      const othersTargets = new Set([other.id, other.keyId, other.registryId, other.userId, other.uid, other.roleBindingId]);
      expect(seen.filter((entry) => entry.target !== null && othersTargets.has(entry.target))).toEqual([]);
      // Filters narrow the organization's entries, never widen them.
      expect(await readAll(own.key, { target: other.registryId })).toEqual([]);
      expect(await readAll(own.key, { action: 'organizations.create' })).toEqual([
        expect.objectContaining({ target: own.id, organizationId: own.id }),
      ]);
    }
  });

  it("refuses an organization's key that names another organization, and agrees with the platform's view of it", async () => {
    const refused = await request(identity.server).get('/v1/audit').query({ organization: b.id }).set(bearer(a.key)).expect(403);
    expect(refused.body.domainCode).toBe('audit.organization_not_own');
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'organization' })]);
    const named = await readAll(a.key, { organization: a.id });
    const byPlatform = await readAll(identity.platformKey, { organization: a.id });
    expect(byPlatform.map((entry) => entry.id)).toEqual(named.map((entry) => entry.id));
    expect(byPlatform).toEqual(expectedOf(a));
  });

  it('shows the platform every entry, those of no organization too', async () => {
    const all = (await readAll(identity.platformKey)).map((entry) => entry.organizationId);
    expect(all).toEqual(expect.arrayContaining([a.id, b.id, null]));
  });

  it("refuses an agent's key, whose acts the log holds to account", async () => {
    const agentKey = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'drafting agent', class: 'app', organizationId: a.id, agentSupervisorId: a.uid })
      .expect(201);
    const refused = await request(identity.server).get('/v1/audit').set(bearer(agentKey.body.secret)).expect(403);
    expect(refused.body.domainCode).toBe('audit.agent_key_refused');
  });
});

// Last in this file: it undoes the migration and runs it again on the entries the tests above wrote.
describe('the migration that added the column', () => {
  it("gives earlier entries the organization the services now write for them, and none to a person's sign-in or a platform key use", async () => {
    const written = (await identity.dataSource.query(
      `SELECT id, action, organization_id AS "organizationId" FROM audit_entry
        WHERE organization_id = ANY($1::uuid[]) OR (action = 'key.use' AND actor_id = $2) ORDER BY id`,
      [[a.id, b.id], identity.platformKey.split('_')[2]],
    )) as { id: string; action: string; organizationId: string | null }[];
    expect(written.some((entry) => entry.action === 'key.use' && entry.organizationId === null)).toBe(true);
    const [personal] = (await identity.dataSource.query(
      `INSERT INTO audit_entry (id, actor_kind, actor_id, action, target, outcome, detail)
       VALUES (gen_random_uuid(), 'human', $1, 'tokens.issue', 'some-grant', 'success', '{"clientId":"client_x"}') RETURNING id`,
      [a.uid],
    )) as { id: string }[];

    await undoMigrationsThrough(identity.dataSource, 'AuditEntryOrganization1765000000007');
    await identity.dataSource.runMigrations();

    const refilled = (await identity.dataSource.query(
      `SELECT id, organization_id AS "organizationId" FROM audit_entry WHERE id = ANY($1)`,
      [[...written.map((entry) => entry.id), personal!.id]],
    )) as { id: string; organizationId: string | null }[];
    expect(Object.fromEntries(refilled.map((row) => [row.id, row.organizationId]))).toEqual(
      Object.fromEntries([...written.map((entry) => [entry.id, entry.organizationId]), [personal!.id, null]]),
    );
    await expect(identity.dataSource.query(`UPDATE audit_entry SET action = 'forged' WHERE id = $1`, [written[0]!.id])).rejects.toThrow(
      /append-only/,
    );
  });
});
