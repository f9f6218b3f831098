import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { STANDARDS_API_ERRORS } from '@stdreg/contracts';
import { credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';

let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
}, 120_000);
afterAll(() => running.close());

describe('domain error codes', () => {
  it('names the precise reason beside the category in the problem body', async () => {
    const org = randomUUID();
    const missing = await request(running.api.server)
      .get(`/api/v2/split-projects/${randomUUID()}`)
      .set(credentialHeaders(`member-of:${org}`, org))
      .expect(404);
    expect(missing.body).toMatchObject({ code: 'not_found', domainCode: 'split_projects.not_found' });
    const noOrg = await request(running.api.server).get('/api/v2/split-projects').set({ Authorization: 'Bearer member-of:x' }).expect(400);
    expect(noOrg.body).toMatchObject({ code: 'validation_failed', domainCode: 'authorization.organization_missing' });
    const term = await request(running.api.server).get('/api/v2/standards/NOPE-1').expect(404);
    expect(term.body.domainCode).toBe('registry.not_found');
  });

  it('lists every code standards-api answers in its OpenAPI description', async () => {
    const { body } = await request(running.api.server).get('/api/v2/openapi.json').expect(200);
    expect(body.components.schemas.ProblemDetailsDto.properties.domainCode.enum).toEqual(Object.keys(STANDARDS_API_ERRORS));
  });
});
