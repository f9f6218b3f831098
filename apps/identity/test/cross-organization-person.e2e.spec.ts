import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { SigninFlow } from './support/signin-flow';
import { startSigninScene, type SigninScene } from './support/signin-scene';
import { FormBrowser, registerPartnerApp, type PartnerApp, type SigninIdentity } from './support/signin-fixture';

// A hostile partner creates a user with the email of another organization's person, claims it is
// verified, sets its password and signs in; later the real organization syncs that person.
let scene: SigninScene;
let identity: SigninIdentity;
let callback: SigninScene['callback'];
let flow: SigninFlow;

beforeAll(async () => {
  scene = await startSigninScene();
  ({ identity, callback, flow } = scene);
}, 60_000);
afterAll(() => scene?.close());

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

async function mirror(app: PartnerApp, email: string): Promise<{ id: string; uid: string }> {
  const { body } = await request(identity.server)
    .post('/v1/users')
    .set(bearer(app.appKey))
    .send({
      registryId: app.registryId,
      externalId: `x-${randomBytes(4).toString('hex')}`,
      email,
      emailVerified: true,
      displayName: 'Wang Fang',
      locale: 'en',
    })
    .expect(201);
  return { id: body.id as string, uid: body.uid as string };
}

async function setPassword(app: PartnerApp, mirrorId: string, password: string): Promise<void> {
  const setup = await request(identity.server).post(`/v1/users/${mirrorId}/password-setup`).set(bearer(app.appKey)).expect(201);
  const browser = new FormBrowser();
  const done = await browser.submit(await browser.get(setup.body.setupUrl as string), { password, confirm: password });
  expect(done.status).toBe(200);
}

async function accessTokenThrough(app: PartnerApp, email: string, password: string): Promise<string> {
  const config = await flow.relyingParty(app);
  const authorization = await flow.authorizationUrl(config);
  const callbackUrl = await flow.signIn(authorization, email, password);
  return (await flow.tokens(config, authorization, callbackUrl)).access_token;
}

describe('one email at two organizations', () => {
  it("never joins another organization's person to a partner's claim; only an operator's merge joins them", async () => {
    const hostile = await registerPartnerApp(identity, [callback.redirectUri]);
    const victimOrg = await registerPartnerApp(identity, [callback.redirectUri]);
    const email = `wang.fang.${randomBytes(4).toString('hex')}@victim.example`;

    const claimed = await mirror(hostile, email);
    await setPassword(hostile, claimed.id, 'the hostile partner chose this one');
    const hostileToken = await accessTokenThrough(hostile, email, 'the hostile partner chose this one');

    const { body: synced } = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(victimOrg.appKey))
      .send({
        registryId: victimOrg.registryId,
        records: [{ externalId: 'real-person', email, emailVerified: true, displayName: 'Wang Fang', locale: 'zh-Hans' }],
      })
      .expect(200);
    expect(synced.results[0]).toMatchObject({ outcome: 'created' });
    const person = synced.results[0].uid as string;
    expect(person).not.toBe(claimed.uid);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set(bearer(identity.platformKey))
      .send({ uid: person, role: 'project-owner', organizationId: victimOrg.organizationId })
      .expect(201);

    const hostileDecision = await flow.decide(hostileToken, 'split-project:activate', victimOrg.organizationId);
    expect(hostileDecision.body).toMatchObject({ decision: 'deny', subject: { kind: 'human', id: claimed.uid } });

    // The real person sets a password of their own with the same email, and signing in through
    // each organization's app finds that organization's person.
    const { body: records } = await request(identity.server)
      .get(`/v1/users?registryId=${victimOrg.registryId}&email=${encodeURIComponent(email)}`)
      .set(bearer(victimOrg.appKey))
      .expect(200);
    await setPassword(victimOrg, records.items[0].id as string, 'the real person chose this one');
    const personToken = await accessTokenThrough(victimOrg, email, 'the real person chose this one');
    const personDecision = await flow.decide(personToken, 'split-project:activate', victimOrg.organizationId);
    expect(personDecision.body).toMatchObject({ decision: 'allow', subject: { kind: 'human', id: person } });
    const again = await flow.decide(
      await accessTokenThrough(hostile, email, 'the hostile partner chose this one'),
      'split-project:activate',
      victimOrg.organizationId,
    );
    expect(again.body).toMatchObject({ decision: 'deny', subject: { kind: 'human', id: claimed.uid } });

    const third = await registerPartnerApp(identity, [callback.redirectUri]);
    const authorization = await flow.authorizationUrl(await flow.relyingParty(third));
    const browser = new FormBrowser();
    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    const refused = await browser.submit(login, { email, password: 'the real person chose this one' }, '/login');
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('More than one account signs in with this email address here.');

    await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(bearer(identity.platformKey))
      .send({ survivorUid: person, mergedUid: claimed.uid })
      .expect(201);
    const { body: joined } = await request(identity.server).get(`/v1/users/${claimed.id}`).set(bearer(hostile.appKey)).expect(200);
    expect(joined.uid).toBe(person);
  });

  it('keeps sign-in unambiguous: a second person of one organization cannot take the login email another already has', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const email = `shared.${randomBytes(4).toString('hex')}@example.com`;
    const { body: records } = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(app.appKey))
      .send({
        registryId: app.registryId,
        records: [
          { externalId: 'one', email, emailVerified: false, displayName: 'One', locale: 'en' },
          { externalId: 'two', email, emailVerified: false, displayName: 'Two', locale: 'en' },
        ],
      })
      .expect(200);
    expect(records.results[0].uid).not.toBe(records.results[1].uid);
    const { body: listed } = await request(identity.server)
      .get(`/v1/users?registryId=${app.registryId}&email=${encodeURIComponent(email)}`)
      .set(bearer(app.appKey))
      .expect(200);
    await setPassword(app, listed.items[0].id as string, 'the first of two passwords');
    const second = await request(identity.server)
      .post(`/v1/users/${listed.items[1].id}/password-setup`)
      .set(bearer(app.appKey))
      .expect(409);
    expect(second.body.detail).toContain('already signs in with this email');
  });

  it('locks only the person whose password failed: the same email at another organization still signs in', async () => {
    const first = await registerPartnerApp(identity, [callback.redirectUri]);
    const second = await registerPartnerApp(identity, [callback.redirectUri]);
    const email = `li.na.${randomBytes(4).toString('hex')}@example.com`;
    const atFirst = await mirror(first, email);
    const atSecond = await mirror(second, email);
    expect(atFirst.uid).not.toBe(atSecond.uid);
    await setPassword(first, atFirst.id, 'the first organization’s person');
    await setPassword(second, atSecond.id, 'the second organization’s person');

    const browser = new FormBrowser();
    const login = await browser.follow((await flow.authorizationUrl(await flow.relyingParty(first))).url.toString(), callback.redirectUri);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await browser.submit(login, { email, password: 'somebody guessing wrong' }, '/login');
    }
    const locked = await browser.submit(login, { email, password: 'the first organization’s person' }, '/login');
    expect(locked.status).toBe(429);
    const token = await accessTokenThrough(second, email, 'the second organization’s person');
    const decision = await flow.decide(token, 'split-project:read', second.organizationId);
    expect(decision.body).toMatchObject({ subject: { kind: 'human', id: atSecond.uid } });
  });
});
