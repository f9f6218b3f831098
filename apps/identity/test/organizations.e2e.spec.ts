import request from 'supertest';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.close());

describe('reading an organization', () => {
  it('lets an app key read its own organization and no other', async () => {
    const own = await identity.newAppKey();
    const other = await identity.newAppKey();
    const read = await request(identity.server).get(`/v1/organizations/${own.organizationId}`).set(bearer(own.secret)).expect(200);
    expect(read.body).toEqual({ id: own.organizationId, name: expect.stringMatching(/^Org /), createdAt: expect.any(String) });
    const foreign = await request(identity.server).get(`/v1/organizations/${other.organizationId}`).set(bearer(own.secret)).expect(403);
    expect(foreign.body.code).toBe('forbidden');
  });

  it('lets a platform key read any organization and still refuses a missing key', async () => {
    const app = await identity.newAppKey();
    await request(identity.server).get(`/v1/organizations/${app.organizationId}`).set(bearer(identity.platformKey)).expect(200);
    await request(identity.server).get(`/v1/organizations/${app.organizationId}`).expect(401);
  });
});

describe('listing organizations', () => {
  it('walks every organization exactly once, page by page, in id order, the last page without a cursor', async () => {
    for (let i = 0; i < 3; i++) await identity.newAppKey();
    const stored: { id: string }[] = await identity.dataSource.query('SELECT id FROM organization ORDER BY id');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages <= stored.length; pages++) {
      const page = await request(identity.server)
        .get('/v1/organizations')
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .set(bearer(identity.platformKey))
        .expect(200);
      seen.push(...page.body.items.map((organization: { id: string }) => organization.id));
      cursor = page.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(stored.map((row) => row.id));
  });
});

describe('creating an organization', () => {
  it.each([
    ['a blank name', '   ', 'name must not be blank'],
    ['a name over 200 characters', 'o'.repeat(201), 'name must be shorter than or equal to 200 characters'],
  ])('refuses %s with a 400 naming the field, and creates nothing', async (_, name, message) => {
    const count = async () => (await identity.dataSource.query('SELECT count(*)::int AS n FROM organization'))[0].n;
    const before = await count();
    const response = await request(identity.server).post('/v1/organizations').set(bearer(identity.platformKey)).send({ name }).expect(400);
    expect(response.body.errors).toEqual([{ field: 'name', message }]);
    expect(await count()).toBe(before);
  });
});
