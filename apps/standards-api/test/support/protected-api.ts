// standards-api behind the fake identity, and the request helpers protected-route specs share.
import request from 'supertest';
import { FakeIdentity } from '@stdreg/server-kit/testing';
import { sampleScenario } from './sample-scenario';
import { startStandardsApi, type RunningStandardsApi } from './standards-api-app';

export interface ProtectedApi {
  api: RunningStandardsApi;
  identity: FakeIdentity;
  close(): Promise<void>;
}

/** The real standards-api asking a fake identity (short timeout, no read cache, so every request asks). */
export async function startProtectedApi(env: Record<string, string> = {}): Promise<ProtectedApi> {
  const identity = new FakeIdentity();
  await identity.start();
  const api = await startStandardsApi({
    IDENTITY_URL: identity.url,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    AUTHZ_TIMEOUT_MS: '300',
    AUTHZ_READ_CACHE_MS: '0',
    ...env,
  });
  return {
    api,
    identity,
    close: async () => {
      await api.close();
      await identity.stop();
    },
  };
}

/** A credential (see fake-identity's forms) acting in an organization. */
export const credentialHeaders = (credential: string, org: string) => ({ Authorization: `Bearer ${credential}`, 'X-Organization-Id': org });

/** A project made from the sample scenario by a member, then activated (Rule Version 1, effective now) by an approver of `org`. */
export async function activatedProject(api: RunningStandardsApi, org: string): Promise<{ projectId: string; scenarioId: string }> {
  const created = (
    await request(api.server)
      .post('/api/v2/split-projects')
      .set(credentialHeaders(`member-of:${org}`, org))
      .send({
        name: 'Studio revenue share',
        currency: 'EUR',
        templateVersion: '2.0',
        scenario: { name: 'Baseline', content: sampleScenario() },
      })
      .expect(201)
  ).body;
  const projectId: string = created.project.id;
  const scenarioId: string = created.scenario.id;
  const activate = (body: Record<string, unknown>) =>
    request(api.server)
      .post(`/api/v2/split-projects/${projectId}/activate`)
      .set(credentialHeaders(`approver-of:${org}`, org))
      .send({ scenarioId, ...body });
  const { confirmationToken } = (await activate({}).expect(428)).body;
  await activate({ confirmationToken }).expect(201);
  return { projectId, scenarioId };
}
