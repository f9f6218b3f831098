import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';

let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
}, 120_000);
afterAll(() => running.close());

const ORG = randomUUID();

async function resourceAskedFor(path: string): Promise<{ organizationId?: string; projectId?: string }> {
  running.identity.questions = [];
  await request(running.api.server)
    .get(path)
    .set(credentialHeaders(`member-of:${ORG}`, ORG));
  expect(running.identity.questions).toHaveLength(1);
  return running.identity.questions[0]!.resource;
}

describe('the caller guard', () => {
  it('asks identity about the split project a route names in its parameter', async () => {
    const project = randomUUID();
    for (const path of [
      `/api/v2/split-projects/${project}`,
      `/api/v2/split-projects/${project}/scenarios`,
      `/api/v2/split-projects/${project}/rule-versions`,
      `/api/v2/split-projects/${project}/rule-versions/1`,
      `/api/v2/split-projects/${project}/settlement-runs`,
    ]) {
      expect(await resourceAskedFor(path)).toEqual({ organizationId: ORG, projectId: project });
    }
  });

  it('names no project for a route about something else, even when its id looks like a project path', async () => {
    const id = randomUUID();
    expect(await resourceAskedFor(`/api/v2/operating-scenarios/${id}`)).toEqual({ organizationId: ORG });
    expect(await resourceAskedFor(`/api/v2/settlement-runs/${id}`)).toEqual({ organizationId: ORG });
    expect(await resourceAskedFor('/api/v2/split-projects')).toEqual({ organizationId: ORG });
  });

  it('answers a project id longer than any project has without asking identity', async () => {
    running.identity.questions = [];
    const response = await request(running.api.server)
      .get(`/api/v2/split-projects/${'a'.repeat(300)}`)
      .set(credentialHeaders(`member-of:${ORG}`, ORG))
      .expect(404);
    expect(response.body.domainCode).toBe('split_projects.not_found');
    expect(running.identity.questions).toHaveLength(0);
  });
});
