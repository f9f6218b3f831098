import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { activatedProject, credentialHeaders, startProtectedApi, type ProtectedApi } from './support/protected-api';

let running: ProtectedApi;
beforeAll(async () => {
  running = await startProtectedApi();
}, 120_000);
afterAll(() => running.close());

const ORG = randomUUID();
const member = credentialHeaders(`member-of:${ORG}`, ORG);

describe('what caches may keep', () => {
  it("stores no organization's data and no error anywhere: every protected answer and every problem says no-store", async () => {
    const { projectId, scenarioId } = await activatedProject(running.api, ORG);
    const server = running.api.server;
    const answers: { what: string; send: () => request.Test; status: number }[] = [
      { what: 'the projects', send: () => request(server).get('/api/v2/split-projects').set(member), status: 200 },
      { what: 'a project', send: () => request(server).get(`/api/v2/split-projects/${projectId}`).set(member), status: 200 },
      { what: 'its scenarios', send: () => request(server).get(`/api/v2/split-projects/${projectId}/scenarios`).set(member), status: 200 },
      {
        what: 'its rule versions',
        send: () => request(server).get(`/api/v2/split-projects/${projectId}/rule-versions`).set(member),
        status: 200,
      },
      {
        what: 'its settlement runs',
        send: () => request(server).get(`/api/v2/split-projects/${projectId}/settlement-runs`).set(member),
        status: 200,
      },
      {
        what: 'a revision history',
        send: () => request(server).get(`/api/v2/operating-scenarios/${scenarioId}/revisions`).set(member),
        status: 200,
      },
      { what: 'an equity ledger', send: () => request(server).get(`/api/v2/equity-ledgers/${randomUUID()}`).set(member), status: 200 },
      { what: 'a refusal without a credential', send: () => request(server).get(`/api/v2/split-projects/${projectId}`), status: 401 },
      {
        what: 'a missing scenario',
        send: () => request(server).get(`/api/v2/operating-scenarios/${randomUUID()}`).set(member),
        status: 404,
      },
      { what: 'a missing registry record', send: () => request(server).get('/api/v2/standards/RUL-99999'), status: 404 },
    ];
    const stored: string[] = [];
    for (const answer of answers) {
      const response = await answer.send();
      expect([answer.what, response.status]).toEqual([answer.what, answer.status]);
      if (response.headers['cache-control'] !== 'no-store') stored.push(`${answer.what}: ${response.headers['cache-control']}`);
    }
    expect(stored).toEqual([]);
  });

  it('lets only the browser keep a scenario, revalidated each time, and shared caches keep registry reads per language', async () => {
    const { scenarioId } = await activatedProject(running.api, ORG);
    const scenario = await request(running.api.server).get(`/api/v2/operating-scenarios/${scenarioId}`).set(member).expect(200);
    expect(scenario.headers['cache-control']).toBe('private, no-cache');
    const registry = await request(running.api.server).get('/api/v2/terms').set('Accept-Language', 'zh-CN').expect(200);
    expect(registry.headers).toMatchObject({ 'cache-control': 'public, max-age=60', vary: 'Accept-Language' });
  });
});
