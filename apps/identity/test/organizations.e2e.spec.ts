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
