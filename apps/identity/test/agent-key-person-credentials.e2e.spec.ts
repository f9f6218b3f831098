import request from 'supertest';
import type { IssuedKeyDto } from '@stdreg/contracts';
import { FormBrowser, PASSWORD, createMirrorRecord } from './support/signin-fixture';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// An agent's key (AGT-1) acts at identity's API as an App key does, except where that would make it a
// person: it issues no password link (whoever holds one sets the person's password and signs in as them)
// and registers no app (a partner app's sign-in client gets people's own tokens, never marked as an agent's).
// Either way a person's token would be in the agent's hands, and with it every formal write the person may make.

let scene: SigninScene;
beforeAll(async () => {
  scene = await startSigninScene();
});
afterAll(() => scene?.close());

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** Two people of the partner's organization with an approving role, and an agent's key for one, bound to the partner's registry. */
async function approversAndAgent() {
  const { identity, app } = scene;
  const supervisor = await createMirrorRecord(identity, app);
  const colleague = await createMirrorRecord(identity, app);
  for (const person of [supervisor, colleague]) {
    await request(identity.server)
      .post('/v1/role-bindings')
      .set(bearer(identity.platformKey))
      .send({ uid: person.uid, role: 'settlement-approver', organizationId: app.organizationId })
      .expect(201);
  }
  const agent: IssuedKeyDto = (
    await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({
        name: 'drafting agent',
        class: 'app',
        organizationId: app.organizationId,
        agentSupervisorId: supervisor.uid,
        allowedRegistryIds: [app.registryId],
      })
      .expect(201)
  ).body;
  return { supervisor, colleague, agent };
}

describe("an agent's key never holds a person's sign-in", () => {
  it('is refused a password link for a person of its own registry, and the person keeps no password the agent could set', async () => {
    const { identity, app, flow } = scene;
    const { supervisor, colleague, agent } = await approversAndAgent();
    for (const person of [colleague, supervisor]) {
      const refused = await request(identity.server).post(`/v1/users/${person.id}/password-setup`).set(bearer(agent.secret)).expect(403);
      expect(refused.body).toMatchObject({ code: 'forbidden', domainCode: 'passwords.agent_key_refused' });
      expect(refused.body.setupUrl).toBeUndefined();
    }
    const links = await identity.dataSource.query('SELECT count(*)::int AS n FROM password_setup WHERE uid = ANY($1::uuid[])', [
      [supervisor.uid, colleague.uid],
    ]);
    expect(links).toEqual([{ n: 0 }]);
    // The partner's own key still may, and the person then signs in as themselves.
    const issued = await request(identity.server).post(`/v1/users/${colleague.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    expect((await browser.submit(await browser.get(issued.body.setupUrl), { password: PASSWORD, confirm: PASSWORD })).status).toBe(200);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const token = (await flow.tokens(config, authorization, await flow.signIn(authorization, colleague.email))).access_token;
    expect((await flow.decide(token, 'settlement-run:post', app.organizationId)).body).toMatchObject({
      decision: 'allow',
      subject: { kind: 'human', id: colleague.uid },
    });
  });

  it('is refused the registration of an app, whose sign-in client would hand it people’s own tokens; nothing is registered or bound', async () => {
    const { identity, callback } = scene;
    const { agent } = await approversAndAgent();
    const refused = await request(identity.server)
      .post('/v1/apps')
      .set(bearer(agent.secret))
      .send({ name: 'Finance portal', type: 'Traditional', redirectUris: [callback.redirectUri] })
      .expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', domainCode: 'apps.agent_key_refused' });
    expect(refused.body.clientSecret).toBeUndefined();
    expect(
      await identity.dataSource.query('SELECT count(*)::int AS n FROM registered_app WHERE registered_by_key = $1', [agent.key.id]),
    ).toEqual([{ n: 0 }]);
    const key = await request(identity.server).get(`/v1/keys/${agent.key.id}`).set(bearer(identity.platformKey)).expect(200);
    expect(key.body.allowedRegistryIds).toEqual([scene.app.registryId]);
  });
});
