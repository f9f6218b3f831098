import request from 'supertest';
import { SERVICE_TOKEN } from './support/identity-app';
import { signinFlow } from './support/signin-flow';
import {
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type SigninIdentity,
} from './support/signin-fixture';

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;

beforeAll(async () => {
  identity = await startSigninIdentity();
  callback = await startCallbackServer();
});
afterAll(async () => {
  await callback?.close();
  await identity?.close();
});

describe('the audit log of formal writes', () => {
  it('records an allowed formal decision with the human who asked, and a denied one with the key', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ uid: user.uid, role: 'settlement-approver', organizationId: app.organizationId })
      .expect(201);
    const flow = signinFlow(identity, callback.redirectUri);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email));

    const allowed = await flow.decide(tokens.access_token, 'settlement-run:post', app.organizationId);
    expect(allowed.body).toMatchObject({ decision: 'allow', subject: { kind: 'human', id: user.uid } });
    const readOnly = await flow.decide(tokens.access_token, 'settlement-run:read', app.organizationId);
    expect(readOnly.body.decision).toBe('allow');
    const denied = await request(identity.server)
      .post('/v1/decisions')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        credential: { kind: 'api_key', value: app.appKey },
        action: 'settlement-run:post',
        resource: { organizationId: app.organizationId },
      })
      .expect(200);
    expect(denied.body).toMatchObject({ decision: 'deny', reason: 'human_required' });

    const rows: { actor_kind: string; actor_id: string; outcome: string; reason: string }[] = await identity.dataSource.query(
      `SELECT actor_kind, actor_id, outcome, detail->>'reason' AS reason FROM audit_entry WHERE action LIKE 'decision:settlement-run:%' ORDER BY id`,
    );
    expect(rows).toEqual([
      { actor_kind: 'human', actor_id: user.uid, outcome: 'success', reason: 'role:settlement-approver' },
      { actor_kind: 'app_key', actor_id: app.appKey.split('_')[2], outcome: 'denied', reason: 'human_required' },
    ]);
  });
});
