import request from 'supertest';
import { IDENTITY_ERRORS } from '@stdreg/contracts';
import { startIdentity, type RunningIdentity } from './support/identity-app';

let identity: RunningIdentity;
beforeAll(async () => {
  identity = await startIdentity();
}, 60_000);
afterAll(() => identity.close());

const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });

describe('domain error codes', () => {
  it('names the precise reason beside the category in the problem body', async () => {
    const missing = await request(identity.server)
      .get('/v1/unified-users/01900000-0000-7000-8000-000000000000')
      .set(platform())
      .expect(404);
    expect(missing.body).toMatchObject({ code: 'not_found', domainCode: 'unified_users.not_found' });
    const noKey = await request(identity.server).get('/v1/keys').expect(401);
    expect(noKey.body).toMatchObject({ code: 'unauthenticated', domainCode: 'keys.credential_missing' });
    const merge = await request(identity.server)
      .post('/v1/merges/01900000-0000-7000-8000-000000000000/unmerge')
      .set(platform())
      .expect(404);
    expect(merge.body).toMatchObject({ code: 'not_found', domainCode: 'merge.not_found' });
    const partner = await identity.newAppKey();
    const notOwn = await request(identity.server)
      .get('/v1/keys')
      .set({ Authorization: `Bearer ${partner.secret}` })
      .expect(403);
    expect(notOwn.body.domainCode).toBe('keys.platform_key_required');
  });

  it('lists every code identity answers in its OpenAPI description', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(body.components.schemas.ProblemDetailsDto.properties.domainCode.enum).toEqual(Object.keys(IDENTITY_ERRORS));
  });
});
