import request from 'supertest';
import { withReplicaClockSkewed } from '@stdreg/server-kit/testing';
import { FormBrowser, PASSWORD, createUserWithPassword, getJson } from './support/signin-fixture';
import type { Authorization } from './support/signin-flow';
import { startSigninScene, type SigninScene } from './support/signin-scene';

// A formal write needs a recent sign-in (FORMAL_WRITE_MAX_AGE_SECONDS, small here), and the provider's
// metadata is where MCP clients look for it (RFC 8414) as well as at the OIDC discovery path.
const MAX_AGE = 3;

let scene: SigninScene;
beforeAll(async () => {
  scene = await startSigninScene({ FORMAL_WRITE_MAX_AGE_SECONDS: String(MAX_AGE) });
});
afterAll(() => scene?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Goes through the authorization request with the browser's session: logs in only when the provider
 * asks for it, consents only when asked. Answers the callback URL and whether the login page came up.
 */
async function authorize(
  browser: FormBrowser,
  authorization: Authorization,
  email: string,
): Promise<{ callbackUrl: URL; loggedIn: boolean }> {
  const redirectUri = scene.callback.redirectUri;
  let page = await browser.follow(authorization.url.toString(), redirectUri);
  const loggedIn = page.text.includes('name="password"');
  if (loggedIn) {
    const afterLogin = await browser.submit(page, { email, password: PASSWORD }, '/login');
    expect(afterLogin.status).toBe(303);
    page = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
  }
  if (page.text.includes('name="decision" value="allow"')) {
    const afterConsent = await browser.submit(page, { decision: 'allow' }, '/consent');
    page = await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), redirectUri);
  }
  expect(page.url.startsWith(redirectUri)).toBe(true);
  return { callbackUrl: new URL(page.url), loggedIn };
}

describe('the authorization server metadata', () => {
  it('answers at RFC 8414’s path-inserted URL and at the OIDC discovery path, the same document, S256 only', async () => {
    const { identity } = scene;
    const inserted = await getJson<Record<string, unknown>>(`${identity.origin}/.well-known/oauth-authorization-server/oidc`);
    const discovery = await getJson<Record<string, unknown>>(`${identity.issuer}/.well-known/openid-configuration`);
    for (const metadata of [inserted, discovery]) {
      expect(metadata['issuer']).toBe(identity.issuer);
      expect(metadata['code_challenge_methods_supported']).toEqual(['S256']);
      expect(metadata['authorization_endpoint']).toBe(`${identity.issuer}/auth`);
      expect(metadata['token_endpoint']).toBe(`${identity.issuer}/token`);
    }
    expect(inserted).toEqual(discovery);
    // Only the issuer's own metadata: nothing below it, nothing for another path.
    await request(identity.server).get('/.well-known/oauth-authorization-server/oidc/auth').expect(404);
    await request(identity.server).get('/.well-known/oauth-authorization-server').expect(404);
  });
});

describe('a formal write needs a recent sign-in', () => {
  /** A settlement approver of the scene's organization, and a browser to sign them in with. */
  async function approver() {
    const { identity, app, flow } = scene;
    const user = await createUserWithPassword(identity, app);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ uid: user.uid, role: 'settlement-approver', organizationId: app.organizationId })
      .expect(201);
    const config = await flow.relyingParty(app);
    const browser = new FormBrowser();
    const signIn = async (extra: Record<string, string> = {}) => {
      const authorization = await flow.authorizationUrl(config, extra);
      const { callbackUrl, loggedIn } = await authorize(browser, authorization, user.email);
      return { token: (await flow.tokens(config, authorization, callbackUrl)).access_token, loggedIn };
    };
    return { user, signIn };
  }

  it('denies a token whose sign-in is older than the limit (authentication_too_old, with the limit), until max_age or prompt=login signs the person in again', async () => {
    const { identity, app, flow } = scene;
    const { user, signIn } = await approver();

    const first = await signIn();
    expect(first.loggedIn).toBe(true);
    expect((await flow.decide(first.token, 'split-project:activate', app.organizationId)).body).toMatchObject({ decision: 'allow' });

    await sleep((MAX_AGE + 1.5) * 1000);
    for (const action of ['split-project:activate', 'rule-version:create', 'settlement-run:post']) {
      const { body } = await flow.decide(first.token, action, app.organizationId);
      expect(body).toMatchObject({
        decision: 'deny',
        reason: 'authentication_too_old',
        maxAge: MAX_AGE,
        subject: { kind: 'human', id: user.uid },
      });
    }
    // Reading asks for no recent sign-in; and a missing role is said before the age, since no sign-in cures it.
    expect((await flow.decide(first.token, 'settlement-run:read', app.organizationId)).body.decision).toBe('allow');
    const elsewhere = await flow.decide(first.token, 'split-project:activate', '01900000-0000-7000-8000-0000000000ff');
    expect(elsewhere.body).toMatchObject({ decision: 'deny', reason: 'role_required' });
    expect(elsewhere.body).not.toHaveProperty('maxAge');
    // The denial is audited like every formal decision, with the person.
    const audited: { actor_id: string; reason: string }[] = await identity.dataSource.query(
      `SELECT actor_id, detail->>'reason' AS reason FROM audit_entry
        WHERE action = 'decision:split-project:activate' AND outcome = 'denied' AND actor_kind = 'human'`,
    );
    expect(audited).toContainEqual({ actor_id: user.uid, reason: 'authentication_too_old' });

    // The session alone signs the person in silently, keeping the old sign-in time: still too old.
    const silent = await signIn();
    expect(silent.loggedIn).toBe(false);
    expect((await flow.decide(silent.token, 'split-project:activate', app.organizationId)).body.reason).toBe('authentication_too_old');

    // max_age makes the provider ask for the password again; the new token's sign-in is fresh.
    const stepUp = await signIn({ max_age: String(MAX_AGE) });
    expect(stepUp.loggedIn).toBe(true);
    expect((await flow.decide(stepUp.token, 'split-project:activate', app.organizationId)).body).toMatchObject({
      decision: 'allow',
      reason: 'role:settlement-approver',
    });

    await sleep((MAX_AGE + 1.5) * 1000);
    const again = await signIn({ prompt: 'login consent' });
    expect(again.loggedIn).toBe(true);
    expect((await flow.decide(again.token, 'settlement-run:post', app.organizationId)).body.decision).toBe('allow');
  });

  it("measures a sign-in's age by the database's clock, not by that of a deciding replica running ahead or behind", async () => {
    const { app, flow } = scene;
    const { signIn } = await approver();
    const { token } = await signIn();
    const ahead = await withReplicaClockSkewed(60_000, () => flow.decide(token, 'settlement-run:post', app.organizationId));
    expect(ahead.body).toMatchObject({ decision: 'allow' });

    await sleep((MAX_AGE + 1.5) * 1000);
    const behind = await withReplicaClockSkewed(-60_000, () => flow.decide(token, 'settlement-run:post', app.organizationId));
    expect(behind.body).toMatchObject({ decision: 'deny', reason: 'authentication_too_old' });
  });

  it("stamps a sign-in by the database's clock, not by that of a signing-in replica running ahead", async () => {
    const { app, flow } = scene;
    const { signIn } = await approver();
    const { token } = await withReplicaClockSkewed(60_000, () => signIn());
    await sleep((MAX_AGE + 1.5) * 1000);
    expect((await flow.decide(token, 'settlement-run:post', app.organizationId)).body).toMatchObject({
      decision: 'deny',
      reason: 'authentication_too_old',
    });
  });
});
