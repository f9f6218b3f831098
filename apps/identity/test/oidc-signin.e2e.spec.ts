import { createLocalJWKSet, jwtVerify, decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JSONWebKeySet } from 'jose';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import request from 'supertest';
import { OidcStoreRepository } from '../src/sign-in/oidc/oidc-store.repository';
import { IdentityConfig } from '../src/platform/config/identity.config';
import { OIDC_SECRETS, type OidcSecrets } from '../src/platform/secrets/oidc-secrets';
import { signinFlow, type Authorization, type SigninFlow } from './support/signin-flow';
import {
  API_AUDIENCE,
  FormBrowser,
  PASSWORD,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type PartnerApp,
  type SigninIdentity,
  getJson,
  publishedKeys,
} from './support/signin-fixture';

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let app: PartnerApp;
let flow: SigninFlow;

// A subject lease far longer than the steps between a write and the next decision: a write that ended a
// token without outlasting the leases would still be allowed here (the tests revoke, end and merge).
const SUBJECT_LEASE = { TOKEN_SUBJECT_LEASE_MS: '1500' };

beforeAll(async () => {
  identity = await startSigninIdentity(SUBJECT_LEASE);
  callback = await startCallbackServer();
  app = await registerPartnerApp(identity, [callback.redirectUri]);
  flow = signinFlow(identity, callback.redirectUri);
});
afterAll(async () => {
  await callback?.close();
  await identity?.close();
});

const platform = () => ({ Authorization: `Bearer ${identity.platformKey}` });

const relyingParty = (client: PartnerApp = app, secret = client.clientSecret) => flow.relyingParty(client, secret);
const authorizationUrl = (config: oidc.Configuration, extra: Record<string, string> = {}) => flow.authorizationUrl(config, extra);
const signIn = (authorization: Authorization, email: string, password = PASSWORD, browser = new FormBrowser()) =>
  flow.signIn(authorization, email, password, browser);
const tokensFor = (config: oidc.Configuration, authorization: Authorization, callbackUrl: URL) =>
  flow.tokens(config, authorization, callbackUrl);
const decide = (token: string, action = 'split-project:activate', organizationId = app.organizationId) =>
  flow.decide(token, action, organizationId);

async function grantRole(uid: string, role: string, organizationId: string | null): Promise<string> {
  const { body } = await request(identity.server).post('/v1/role-bindings').set(platform()).send({ uid, role, organizationId }).expect(201);
  return body.id as string;
}

async function oauthError(promise: Promise<unknown>): Promise<{ error: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    // openid-client answers a 401 with its WWW-Authenticate challenge, whose parameters carry the error.
    const failure = error as { error?: string; status?: number; response?: Response; cause?: { parameters?: { error?: string } }[] };
    return {
      error: failure.error ?? failure.cause?.[0]?.parameters?.error ?? String(error),
      status: failure.status ?? failure.response?.status ?? 0,
    };
  }
  throw new Error('expected an OAuth error');
}

describe('the OpenID Provider', () => {
  it('publishes its discovery document and public signing keys at the issuer', async () => {
    const discovery = await getJson<Record<string, string | string[]>>(`${identity.issuer}/.well-known/openid-configuration`);
    expect(discovery.issuer).toBe(identity.issuer);
    expect(discovery.authorization_endpoint).toBe(`${identity.issuer}/auth`);
    expect(discovery.token_endpoint).toBe(`${identity.issuer}/token`);
    expect(discovery.jwks_uri).toBe(`${identity.issuer}/jwks`);
    expect(discovery.end_session_endpoint).toBe(`${identity.issuer}/session/end`);
    expect(discovery.revocation_endpoint).toBe(`${identity.issuer}/token/revocation`);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.response_types_supported).toEqual(['code']);
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['sub', 'uid', 'roles', 'email']));
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'offline_access', 'profile', 'email', 'api']));
    // Partner apps authenticate with their secret; agent clients are public (`none`), and hold no secret.
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    const jwks = await getJson<JSONWebKeySet>(discovery['jwks_uri'] as string);
    expect(jwks.keys.map((key) => key.kid)).toEqual(['key-a']);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('points to the discovery document from the OpenAPI description, which describes the password-setup endpoint and not the HTML pages', async () => {
    const { body } = await request(identity.server).get('/v1/openapi.json').expect(200);
    expect(body.components.securitySchemes.oidc).toEqual(
      expect.objectContaining({
        type: 'openIdConnect',
        openIdConnectUrl: `${identity.issuer}/.well-known/openid-configuration`,
      }),
    );
    expect(body.info.description).toContain(`${identity.issuer}/.well-known/openid-configuration`);
    expect(body.paths['/v1/users/{id}/password-setup'].post.responses['201']).toBeDefined();
    expect(Object.keys(body.paths).filter((p) => p.startsWith('/v1/signin') || p.startsWith('/v1/password-setup'))).toEqual([]);
  });

  it('signs a user in: ID token and API access token carry uid, roles, auth_time and amr; the decision endpoint accepts the access token', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'settlement-approver', app.organizationId);
    await grantRole(user.uid, 'external-auditor', null);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));

    const keys = createLocalJWKSet(await publishedKeys(identity));
    const { payload: idToken } = await jwtVerify(tokens.id_token!, keys, { issuer: identity.issuer, audience: app.clientId });
    expect(idToken).toMatchObject({ sub: user.uid, uid: user.uid, amr: ['pwd'], email: user.email });
    expect(typeof idToken['auth_time']).toBe('number');
    expect(idToken['roles']).toEqual(
      expect.arrayContaining([
        { role: 'settlement-approver', organizationId: app.organizationId },
        { role: 'external-auditor', organizationId: null },
      ]),
    );

    const { payload: access, protectedHeader } = await jwtVerify(tokens.access_token, keys, {
      issuer: identity.issuer,
      audience: API_AUDIENCE,
      typ: 'at+jwt',
    });
    expect(protectedHeader.kid).toBe('key-a');
    expect(access).toMatchObject({ sub: user.uid, uid: user.uid, client_id: app.clientId, amr: ['pwd'], scope: 'api' });
    expect(access['auth_time']).toBe(idToken['auth_time']);
    expect(access['roles']).toHaveLength(2);

    const { body: decision } = await decide(tokens.access_token);
    expect(decision).toMatchObject({ decision: 'allow', reason: 'role:settlement-approver', subject: { kind: 'human', id: user.uid } });
    expect((await decide(tokens.access_token, 'split-project:activate', '01900000-0000-7000-8000-0000000000ff')).body).toMatchObject({
      decision: 'deny',
      reason: 'role_required',
    });
  });

  it('signs users in to a first-party product registered with a platform key, under the same rules', async () => {
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set(platform())
      .send({ name: 'Platform Console', type: 'Traditional', redirectUris: [callback.redirectUri] })
      .expect(201);
    const product: PartnerApp = { ...app, registryId: body.app.registryId, clientId: body.app.clientId, clientSecret: body.clientSecret };
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty(product);
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: product.clientId, uid: user.uid });
    const withoutPkce = new URL((await authorizationUrl(config)).url);
    withoutPkce.searchParams.delete('code_challenge');
    const refused = new URL((await fetch(withoutPkce, { redirect: 'manual' })).headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
  });

  it('reads roles now, not when the token was issued: a revoked role denies at once', async () => {
    const user = await createUserWithPassword(identity, app);
    const binding = await grantRole(user.uid, 'settlement-approver', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect((await decide(tokens.access_token)).body.decision).toBe('allow');
    await request(identity.server).delete(`/v1/role-bindings/${binding}`).set(platform()).expect(204);
    expect((await decide(tokens.access_token)).body).toMatchObject({ decision: 'deny', reason: 'role_required' });
  });

  it('rotates refresh tokens, serves userinfo, and a revoked grant stops its access tokens at the decision endpoint', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect(tokens.refresh_token).toBeDefined();

    // Without `resource` the refreshed access token is for userinfo.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const info = await oidc.fetchUserInfo(config, refreshed.access_token, user.uid);
    expect(info).toMatchObject({ sub: user.uid, uid: user.uid, email: user.email, email_verified: true, name: 'Li Wei' });
    // Discovery names only what the provider supplies: every claim it lists beside the protocol's own reaches userinfo.
    const discovery = await getJson<{ claims_supported: string[] }>(`${identity.issuer}/.well-known/openid-configuration`);
    const protocolClaims = new Set(['acr', 'amr', 'auth_time', 'iss', 'sid']);
    expect(discovery.claims_supported.filter((claim) => !protocolClaims.has(claim) && !(claim in info))).toEqual([]);

    // The rotated-out refresh token is refused, and that reuse revokes the whole grant.
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    expect((await decide(tokens.access_token, 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('stops an access token whose grant has run out, though the token itself has not', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    await identity.dataSource.query(`UPDATE oidc_model SET expires_at = now() - interval '1 second' WHERE model = 'Grant' AND id = $1`, [
      decodeJwt(tokens.access_token)['gid'],
    ]);
    expect(decodeJwt(tokens.access_token).exp! * 1000).toBeGreaterThan(Date.now());
    expect((await decide(tokens.access_token, 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('revokes a refresh token at the revocation endpoint, and with it the grant', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect((await decide(tokens.access_token, 'split-project:read')).body.decision).toBe('allow');
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toMatchObject({ error: 'invalid_grant' });
    expect((await decide(tokens.access_token, 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('revokes a JWT access token at the revocation endpoint: the decision endpoint denies it at once, until it expires', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect((await decide(tokens.access_token, 'split-project:read')).body.decision).toBe('allow');

    const stranger = await registerPartnerApp(identity, [callback.redirectUri]);
    const foreign = await request(identity.server)
      .post('/oidc/token/revocation')
      .auth(stranger.clientId, stranger.clientSecret)
      .type('form')
      .send({ token: tokens.access_token, token_type_hint: 'access_token' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('unauthorized_client');
    expect((await decide(tokens.access_token, 'split-project:read')).body.decision).toBe('allow');

    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
    expect((await decide(tokens.access_token, 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
    const { payload } = await jwtVerify(tokens.access_token, createLocalJWKSet(await publishedKeys(identity)));
    const [row] = await identity.dataSource.query('SELECT client_id, expires_at FROM revoked_access_token WHERE jti = $1', [payload.jti]);
    expect(row).toEqual({ client_id: app.clientId, expires_at: new Date(payload.exp! * 1000) });
    // The refresh token and its grant are untouched: a new access token works.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE });
    expect((await decide(refreshed.access_token, 'split-project:read')).body.decision).toBe('allow');
    // Revoking again, or a token that does not verify, is a 200 that changes nothing (RFC 7009).
    await oidc.tokenRevocation(config, tokens.access_token);
    const garbage = await request(identity.server)
      .post('/oidc/token/revocation')
      .auth(app.clientId, app.clientSecret)
      .type('form')
      .send({ token: 'eyJ.not.a-token' });
    expect(garbage.status).toBe(200);
  });

  it("keeps a revoked access token's record past its expiry for replicas whose clocks run behind the database's, and purges it later", async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
    const { jti } = decodeJwt(tokens.access_token);
    // Expired 30 seconds ago by the database's clock: a replica whose clock runs a minute behind still takes the token.
    await identity.dataSource.query(`UPDATE revoked_access_token SET expires_at = now() - interval '30 seconds' WHERE jti = $1`, [jti]);
    await identity.dataSource.query(
      `INSERT INTO revoked_access_token (jti, client_id, expires_at) VALUES ($1, $2, now() - interval '2 hours')`,
      [`long-gone-${jti}`, app.clientId],
    );

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE });
    await oidc.tokenRevocation(config, refreshed.access_token, { token_type_hint: 'access_token' });
    const kept = await identity.dataSource.query('SELECT jti FROM revoked_access_token WHERE jti = ANY($1) ORDER BY jti', [
      [jti, `long-gone-${jti}`, decodeJwt(refreshed.access_token).jti],
    ]);
    expect(kept.map((row: { jti: string }) => row.jti).sort()).toEqual([jti, decodeJwt(refreshed.access_token).jti].sort());
  });

  it('authenticates clients with the secret in the Authorization header or in the form body, and no other way', async () => {
    const user = await createUserWithPassword(identity, app);
    const post = await oidc.discovery(new URL(identity.issuer), app.clientId, undefined, oidc.ClientSecretPost(app.clientSecret), {
      execute: [oidc.allowInsecureRequests],
    });
    const authorization = await authorizationUrl(post);
    const tokens = await tokensFor(post, authorization, await signIn(authorization, user.email));
    expect(tokens.access_token).toBeTruthy();
    const publicClient = await request(identity.server)
      .post('/oidc/token')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: app.clientId });
    expect(publicClient.status).toBe(401);
    expect(publicClient.body.error).toBe('invalid_client');
  });

  it('ends the session at the end-session endpoint (RP-initiated logout), returns to a registered URI, and ends the grant', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    // Without offline_access the grant lives as long as the session.
    const authorization = await authorizationUrl(config, { scope: 'openid api' });
    const browser = new FormBrowser();
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email, PASSWORD, browser));
    expect(tokens.refresh_token).toBeUndefined();
    expect((await decide(tokens.access_token, 'split-project:read')).body.decision).toBe('allow');

    const unregistered = await browser.get(
      oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example/' }).toString(),
    );
    expect(unregistered.status).toBe(400);
    expect(unregistered.text).toContain('post_logout_redirect_uri not registered');

    const logoutUrl = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: callback.redirectUri,
      state: 'bye',
    });
    const confirm = await browser.get(logoutUrl.toString());
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Do you want to sign out?');
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)">[\s\S]*?name="xsrf" value="([^"]+)"/.exec(confirm.text);
    expect(form).not.toBeNull();
    const done = await browser.post(form![1]!, { xsrf: form![2]!, logout: 'yes' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${callback.redirectUri}?state=bye`);
    expect((await decide(tokens.access_token, 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });

    // Signed out: a new authorization request asks for the password again.
    const again = await authorizationUrl(config, { prompt: 'login' });
    const page = await browser.follow(again.url.toString(), callback.redirectUri);
    expect(page.text).toContain('name="password"');
  });
});

describe('what a sign-in gives, to whom, and for how long', () => {
  it('puts the email and name in the ID token only for the scopes that ask for them', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const bare = await authorizationUrl(config, { scope: 'openid api' });
    const withoutEmail = (await tokensFor(config, bare, await signIn(bare, user.email))).claims()!;
    expect(withoutEmail).toMatchObject({ sub: user.uid, uid: user.uid });
    expect(withoutEmail).not.toHaveProperty('email');
    expect(withoutEmail).not.toHaveProperty('email_verified');
    expect(withoutEmail).not.toHaveProperty('name');
    const asked = await authorizationUrl(config, { scope: 'openid email api' });
    const withEmail = (await tokensFor(config, asked, await signIn(asked, user.email))).claims()!;
    expect(withEmail).toMatchObject({ sub: user.uid, email: user.email, email_verified: true });
    expect(withEmail).not.toHaveProperty('name');
  });

  it('gives API access tokens the configured lifetime, codes sixty seconds and refresh tokens thirty days', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const callbackUrl = await signIn(authorization, user.email);
    const [code] = await identity.dataSource.query(
      `SELECT extract(epoch FROM expires_at - now()) AS "secondsLeft" FROM oidc_model WHERE model = 'AuthorizationCode' AND id = $1`,
      [callbackUrl.searchParams.get('code')],
    );
    expect(Number(code.secondsLeft)).toBeLessThanOrEqual(60);
    expect(Number(code.secondsLeft)).toBeGreaterThan(30);
    const tokens = await tokensFor(config, authorization, callbackUrl);
    const access = decodeJwt(tokens.access_token);
    expect(access.exp! - access.iat!).toBe(identity.app.get(IdentityConfig).OIDC_ACCESS_TOKEN_TTL_SECONDS);
    const [refresh] = await identity.dataSource.query(
      `SELECT extract(epoch FROM expires_at - now()) AS "secondsLeft" FROM oidc_model WHERE model = 'RefreshToken' AND id = $1`,
      [tokens.refresh_token],
    );
    expect(Number(refresh.secondsLeft)).toBeLessThanOrEqual(30 * 86_400);
    expect(Number(refresh.secondsLeft)).toBeGreaterThan(29 * 86_400);
    // A partner app's token is no agent's.
    expect(access).not.toHaveProperty('client_kind');
    const refreshed = decodeJwt((await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE })).access_token);
    expect(refreshed.exp! - refreshed.iat!).toBe(identity.app.get(IdentityConfig).OIDC_ACCESS_TOKEN_TTL_SECONDS);
  });

  it('lets no other client revoke a refresh token', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    const stranger = await registerPartnerApp(identity, [callback.redirectUri]);
    await request(identity.server)
      .post('/oidc/token/revocation')
      .auth(stranger.clientId, stranger.clientSecret)
      .type('form')
      .send({ token: tokens.refresh_token!, token_type_hint: 'refresh_token' });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE });
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ sub: user.uid, client_id: app.clientId });
  });

  it('refreshes no token of a user deleted since signing in', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    await request(identity.server).delete(`/v1/users/${user.mirrorId}`).set('Authorization', `Bearer ${app.appKey}`).expect(204);
    expect(await identity.dataSource.query('SELECT 1 FROM unified_user WHERE uid = $1', [user.uid])).toHaveLength(0);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE }))).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('keeps the signed-in account at the consent step: a login form posted there signs no one else in', async () => {
    const first = await createUserWithPassword(identity, app);
    const second = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const browser = new FormBrowser();
    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    const afterLogin = await browser.submit(login, { email: first.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    const [, consentAction, csrf] =
      /<form method="post" action="([^"]+)\/consent[^"]*">\s*<input type="hidden" name="csrf" value="([^"]+)">/.exec(consent.text)!;
    const relogin = await browser.post(new URL(`${consentAction}/login`, consent.url).toString(), {
      csrf: csrf!,
      email: second.email,
      password: PASSWORD,
    });
    expect(relogin.status).toBe(200);
    expect(relogin.text).toContain('name="decision" value="allow"');
    const allowed = await browser.submit(consent, { decision: 'allow' }, '/consent');
    const back = new URL((await browser.follow(new URL(allowed.location!, allowed.url).toString(), callback.redirectUri)).url);
    expect((await tokensFor(config, authorization, back)).claims()).toMatchObject({ sub: first.uid });
  });

  it('answers a consent form posted before anyone signed in with the login page', async () => {
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    const [, loginAction, csrf] =
      /<form method="post" action="([^"]+)\/login[^"]*">\s*<input type="hidden" name="csrf" value="([^"]+)">/.exec(login.text)!;
    const early = await browser.post(new URL(`${loginAction}/consent`, login.url).toString(), { csrf: csrf!, decision: 'allow' });
    expect(early.status).toBe(200);
    expect(early.text).toContain('name="password"');
  });

  it('reads a consent form without an allow as a denial', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const authorization = await authorizationUrl(config);
    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    const afterLogin = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    const undecided = await browser.submit(consent, {}, '/consent');
    const back = new URL((await browser.follow(new URL(undecided.location!, undecided.url).toString(), callback.redirectUri)).url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('adds a consent given again to the grant the app already holds', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const first = await authorizationUrl(config);
    const before = await tokensFor(config, first, await signIn(first, user.email, PASSWORD, browser));
    // Signed in already: the same browser meets the consent page only, with nothing new to ask.
    const again = await authorizationUrl(config);
    const consent = await browser.follow(again.url.toString(), callback.redirectUri);
    expect(consent.text).toContain('Nothing new is asked.');
    const allowed = await browser.submit(consent, { decision: 'allow' }, '/consent');
    const back = new URL((await browser.follow(new URL(allowed.location!, allowed.url).toString(), callback.redirectUri)).url);
    const after = await tokensFor(config, again, back);
    expect(decodeJwt(after.access_token)).toMatchObject({ gid: decodeJwt(before.access_token)['gid'], scope: 'api', sub: user.uid });
  });

  it('signs a user in by an email typed in another Unicode normal form (NFD) than the one stored (NFC)', async () => {
    const composed = `jos\u00e9-${randomBytes(4).toString('hex')}@example.com`;
    const user = await createUserWithPassword(identity, app, PASSWORD, composed);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, composed.normalize('NFD')));
    expect(decodeJwt(tokens.id_token!).sub).toBe(user.uid);
  });

  it('counts a password check with its audit entry or not at all: a lock the log cannot record is not taken', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    await identity.dataSource.query('UPDATE user_password SET failed_attempts = 4 WHERE uid = $1', [user.uid]);
    await identity.dataSource.query(
      `CREATE FUNCTION test_refuse_signin_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END $$`,
    );
    await identity.dataSource.query(
      `CREATE TRIGGER test_refuse_signin_audit BEFORE INSERT ON audit_entry FOR EACH ROW
         WHEN (NEW.action = 'signin.password' AND NEW.target = '${user.uid}') EXECUTE FUNCTION test_refuse_signin_audit()`,
    );
    try {
      expect((await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login')).status).toBe(500);
      const [afterWrong] = await identity.dataSource.query('SELECT failed_attempts, locked_until FROM user_password WHERE uid = $1', [
        user.uid,
      ]);
      expect(afterWrong).toEqual({ failed_attempts: 4, locked_until: null });
      expect((await browser.submit(login, { email: user.email, password: PASSWORD }, '/login')).status).toBe(500);
      const [afterRight] = await identity.dataSource.query('SELECT failed_attempts FROM user_password WHERE uid = $1', [user.uid]);
      expect(afterRight).toEqual({ failed_attempts: 4 });
    } finally {
      await identity.dataSource.query('DROP TRIGGER test_refuse_signin_audit ON audit_entry');
      await identity.dataSource.query('DROP FUNCTION test_refuse_signin_audit');
    }
  });

  it("answers a failure of identity's own on the password form with a page, not an error body", async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    await identity.dataSource.query('ALTER TABLE user_password RENAME TO user_password_away');
    try {
      const failed = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
      expect(failed.status).toBe(500);
      expect(failed.headers.get('content-type')).toMatch(/^text\/html/);
      expect(failed.text).toContain('Sign-in could not continue');
    } finally {
      await identity.dataSource.query('ALTER TABLE user_password_away RENAME TO user_password');
    }
  });

  it('counts on when a lock has run out: a single wrong password does not lock the account again', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    await identity.dataSource.query(
      `UPDATE user_password SET failed_attempts = 5, locked_until = now() - interval '1 second' WHERE uid = $1`,
      [user.uid],
    );
    const wrong = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('4 attempts left');
    const [row] = await identity.dataSource.query('SELECT failed_attempts, locked_until FROM user_password WHERE uid = $1', [user.uid]);
    expect(row).toEqual({ failed_attempts: 6, locked_until: null });
  });

  // NIST SP 800-63B §5.2.2: consecutive failures on one account are limited (to 100 at most), with waits that grow.
  it('doubles each lock while the failures go on in a row, up to a day', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    const lockAfter = async (failuresBefore: number) => {
      await identity.dataSource.query(
        `UPDATE user_password SET failed_attempts = $2, locked_until = now() - interval '1 second' WHERE uid = $1`,
        [user.uid, failuresBefore],
      );
      const page = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
      expect(page.status).toBe(429);
      return { seconds: Number(page.headers.get('retry-after')), text: page.text };
    };
    const second = await lockAfter(9);
    expect(second.seconds).toBeGreaterThan(29 * 60);
    expect(second.seconds).toBeLessThanOrEqual(30 * 60);
    expect(second.text).toContain('Try again in 30 minutes.');
    const third = await lockAfter(14);
    expect(third.seconds).toBeGreaterThan(59 * 60);
    expect(third.seconds).toBeLessThanOrEqual(60 * 60);
    const twelfth = await lockAfter(59);
    expect(twelfth.seconds).toBeGreaterThan(86400 - 60);
    expect(twelfth.seconds).toBeLessThanOrEqual(86400);
    // A day is said in hours, not as 1440 minutes.
    expect(twelfth.text).toContain('Try again in 24 hours.');
  });

  it('locks an account after a hundred failures in a row until a new password is set, whatever the password then', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    await identity.dataSource.query(
      `UPDATE user_password SET failed_attempts = 99, locked_until = now() - interval '1 second' WHERE uid = $1`,
      [user.uid],
    );
    const hundredth = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
    expect(hundredth.status).toBe(403);
    expect(hundredth.headers.get('retry-after')).toBeNull();
    expect(hundredth.text).toContain('this account is locked until its password is set again');
    const right = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    expect(right.status).toBe(403);
    const [row] = await identity.dataSource.query('SELECT failed_attempts FROM user_password WHERE uid = $1', [user.uid]);
    expect(row).toEqual({ failed_attempts: 100 });

    // A new password link (the partner's) ends it.
    const setup = await request(identity.server)
      .post(`/v1/users/${user.mirrorId}/password-setup`)
      .set('Authorization', `Bearer ${app.appKey}`)
      .expect(201);
    const setupBrowser = new FormBrowser();
    const page = await setupBrowser.get(setup.body.setupUrl as string);
    const newPassword = 'another long and unusual passphrase';
    expect((await setupBrowser.submit(page, { password: newPassword, confirm: newPassword })).status).toBe(200);
    const again = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    expect((await browser.submit(again, { email: user.email, password: newPassword }, '/login')).status).toBe(303);
  });
});

describe('how long a sign-in at identity lasts', () => {
  /** Moves the sign-in of the person's sessions `secondsAgo` into the past, as if it had been made then. */
  const signedInAgo = (uid: string, secondsAgo: number) =>
    identity.dataSource.query(
      `UPDATE oidc_model SET payload = jsonb_set(payload, '{loginTs}', to_jsonb(extract(epoch FROM now())::int - $2::int))
        WHERE model = 'Session' AND payload->>'accountId' = $1`,
      [uid, secondsAgo],
    );

  // ASVS 4.0.3 V3.3.2: re-authentication also while the session is in use, not only after it was idle.
  it('asks for the password again fourteen days after the sign-in, however often the session was used', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    await signIn(await authorizationUrl(config), user.email, PASSWORD, browser);

    await signedInAgo(user.uid, 14 * 86400 - 3600);
    const within = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    expect(within.text).toContain('name="decision" value="allow"');
    expect(within.text).not.toContain('name="password"');

    await signedInAgo(user.uid, 14 * 86400 + 60);
    const silent = await browser.follow((await authorizationUrl(config, { prompt: 'none' })).url.toString(), callback.redirectUri);
    expect(new URL(silent.url).searchParams.get('error')).toBe('login_required');
    const asked = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    expect(asked.text).toContain('name="password"');
    const signedIn = await browser.submit(asked, { email: user.email, password: PASSWORD }, '/login');
    expect(signedIn.status).toBe(303);
    const consent = await browser.follow(new URL(signedIn.location!, signedIn.url).toString(), callback.redirectUri);
    expect(consent.text).toContain('name="decision" value="allow"');
  });
});

describe('the session cookie across sign-in and sign-out', () => {
  /** The error a browser holding only `cookie` is answered for a silent authorization request (prompt=none); null for a code. */
  async function silentAnswer(config: oidc.Configuration, cookie: string): Promise<string | null> {
    const authorization = await authorizationUrl(config, { prompt: 'none', scope: 'openid' });
    const answer = await fetch(authorization.url, { redirect: 'manual', headers: { Cookie: cookie } });
    return new URL(answer.headers.get('location')!).searchParams.get('error');
  }

  // ASVS 4.0.3 V3.2.1 (a new session token on authentication) and V3.3.1 (sign-out ends the session on the server).
  it('gives a new session at every sign-in and ends it on the server at sign-out: an old cookie signs no one in', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const first = await authorizationUrl(config, { scope: 'openid' });
    const tokens = await tokensFor(config, first, await signIn(first, user.email, PASSWORD, browser));
    const firstCookie = browser.cookieHeader(`${identity.issuer}/auth`);
    expect(firstCookie).toMatch(/^_session=[^;]+; _session\.sig=/);
    // Signed in: the cookie alone carries the session (a code, no error).
    expect(await silentAnswer(config, firstCookie)).toBeNull();

    const again = await browser.follow((await authorizationUrl(config, { prompt: 'login' })).url.toString(), callback.redirectUri);
    const signedIn = await browser.submit(again, { email: user.email, password: PASSWORD }, '/login');
    await browser.follow(new URL(signedIn.location!, signedIn.url).toString(), callback.redirectUri);
    const secondCookie = browser.cookieHeader(`${identity.issuer}/auth`);
    expect(secondCookie).not.toBe(firstCookie);
    expect(await silentAnswer(config, firstCookie)).toBe('login_required');
    expect(await silentAnswer(config, secondCookie)).toBeNull();

    const confirm = await browser.get(
      oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: callback.redirectUri }).toString(),
    );
    const form = /<form id="op.logoutForm" method="post" action="([^"]+)">[\s\S]*?name="xsrf" value="([^"]+)"/.exec(confirm.text)!;
    expect((await browser.post(form[1]!, { xsrf: form[2]!, logout: 'yes' })).status).toBe(303);
    // A copy of the cookie kept from before the sign-out (another tab, a stolen copy) finds no session.
    expect(await silentAnswer(config, secondCookie)).toBe('login_required');
    const sessions = await identity.dataSource.query(
      `SELECT count(*)::int AS n FROM oidc_model WHERE model = 'Session' AND payload->>'accountId' = $1`,
      [user.uid],
    );
    expect(sessions).toEqual([{ n: 0 }]);
  });

  it('signs in with the password as typed in another Unicode form, and keeps its spaces as they were typed', async () => {
    const password = '  café  Straße 12 ｆｕｌｌ  ';
    const user = await createUserWithPassword(identity, app, password);
    const config = await relyingParty();
    const attempt = async (typed: string) => {
      const browser = new FormBrowser();
      const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
      return (await browser.submit(login, { email: user.email, password: typed }, '/login')).status;
    };
    // Decomposed (as some keyboards and systems send accents) and compatibility forms (fullwidth letters) are one password.
    expect(await attempt(password.normalize('NFD'))).toBe(303);
    expect(await attempt(password.normalize('NFKC'))).toBe(303);
    // Spaces are characters of the password: none is trimmed or merged.
    expect(await attempt(password.trim())).toBe(401);
    expect(await attempt(password.replace(/ {2}/g, ' '))).toBe(401);
    expect(await attempt(password)).toBe(303);
  });
});

describe('the provider’s storage', () => {
  it('never hands out an expired record, and purges those expired for more than a day', async () => {
    const store = identity.app.get(OidcStoreRepository);
    await store.upsert('Session', 'fresh', { accountId: 'a' }, 60);
    await store.upsert('Session', 'stale', { accountId: 'b' }, 60);
    await store.upsert('Session', 'just-expired', { accountId: 'c' }, 60);
    await identity.dataSource.query(`UPDATE oidc_model SET expires_at = now() - interval '2 days' WHERE id = 'stale'`);
    await identity.dataSource.query(`UPDATE oidc_model SET expires_at = now() - interval '1 minute' WHERE id = 'just-expired'`);
    expect(await store.find('Session', 'fresh')).toEqual({ accountId: 'a' });
    expect(await store.find('Session', 'just-expired')).toBeUndefined();
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = await identity.dataSource.query(
      `SELECT id FROM oidc_model WHERE model = 'Session' AND id IN ('fresh', 'stale', 'just-expired') ORDER BY id`,
    );
    expect(left.map((row: { id: string }) => row.id)).toEqual(['fresh', 'just-expired']);
  });
});

describe('a session cookie of a session that ended', () => {
  it('writes no session on any request that carries it, refused or not, and a sign-in with it still works', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    await signIn(await authorizationUrl(config), user.email, PASSWORD, browser);
    const ended = browser.cookieHeader(`${identity.issuer}/auth`);
    expect(ended).toContain('_session=');
    const sessionId = /_session=([^;]+)/.exec(ended)![1]!;
    await identity.dataSource.query(`DELETE FROM oidc_model WHERE model = 'Session' AND id = $1`, [sessionId]);
    const sessions = async () =>
      Number((await identity.dataSource.query(`SELECT count(*) AS n FROM oidc_model WHERE model = 'Session'`))[0].n);
    const before = await sessions();
    const withEnded = (url: string) => fetch(url, { headers: { cookie: ended }, redirect: 'manual' });
    // Refused with a page, refused back to the client (no PKCE), and a valid start of a sign-in.
    const refusedBack = `${identity.issuer}/auth?client_id=${app.clientId}&response_type=code&scope=openid`;
    const answers = [];
    for (const url of [
      `${identity.issuer}/auth`,
      `${identity.issuer}/auth/not-an-interaction`,
      refusedBack,
      (await authorizationUrl(config)).url.toString(),
    ]) {
      const answer = await withEnded(url);
      answers.push([answer.status, answer.headers.get('location')?.includes('error=') ?? false]);
    }
    expect(answers).toEqual([
      [400, false],
      [400, false],
      [303, true],
      [303, false],
    ]);
    expect(await sessions()).toBe(before);
    // The browser that still holds the ended session's cookie signs in again.
    const callbackUrl = await signIn(await authorizationUrl(config), user.email, PASSWORD, browser);
    expect(callbackUrl.searchParams.get('code')).toEqual(expect.any(String));
    expect(await sessions()).toBe(before + 1);
  });
});

describe('sign-in failures end in the protocol’s own errors, never a 500', () => {
  it('refuses a redirect URI that is not exactly a registered one, without redirecting there', async () => {
    const config = await relyingParty();
    for (const redirectUri of [`${callback.redirectUri}/`, `${callback.redirectUri}?x=1`, 'https://evil.example/callback']) {
      const authorization = await authorizationUrl(config, { redirect_uri: redirectUri });
      const response = await fetch(authorization.url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('invalid_redirect_uri');
    }
  });

  it('requires PKCE with S256 from every client, confidential ones too', async () => {
    const config = await relyingParty();
    const withoutPkce = new URL((await authorizationUrl(config)).url);
    withoutPkce.searchParams.delete('code_challenge');
    withoutPkce.searchParams.delete('code_challenge_method');
    const missing = await fetch(withoutPkce, { redirect: 'manual' });
    expect(missing.status).toBe(303);
    const back = new URL(missing.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(callback.redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);

    const plain = new URL((await authorizationUrl(config)).url);
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = new URL((await fetch(plain, { redirect: 'manual' })).headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a code redeemed without its PKCE verifier, or with another one', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const callbackUrl = await signIn(authorization, user.email);
    const code = callbackUrl.searchParams.get('code')!;
    const redeem = (extra: Record<string, string>) =>
      fetch(`${identity.issuer}/token`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callback.redirectUri,
          resource: API_AUDIENCE,
          ...extra,
        }),
      });
    const without = await redeem({});
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({ error: 'invalid_grant' });
    const other = await redeem({ code_verifier: oidc.randomPKCECodeVerifier() });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers a sign-in form whose CSRF value has the cookie’s length in characters but not in bytes with the page and a 403, not a 500', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    for (const action of ['/login', '/abort']) {
      const refused = await browser.submit(login, { csrf: '\u00e9'.repeat(43), email: user.email, password: PASSWORD }, action);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('name="password"');
    }
  });

  it('answers access_denied to the client when the user denies consent or cancels', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const authorization = await authorizationUrl(config);
    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    const afterLogin = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    const denied = await browser.submit(consent, { decision: 'deny' }, '/consent');
    const back = new URL((await browser.follow(new URL(denied.location!, denied.url).toString(), callback.redirectUri)).url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(authorization.state);

    const cancelBrowser = new FormBrowser();
    const another = await authorizationUrl(config);
    const page = await cancelBrowser.follow(another.url.toString(), callback.redirectUri);
    const cancelled = await cancelBrowser.submit(page, {}, '/abort');
    const cancelledBack = new URL(
      (await cancelBrowser.follow(new URL(cancelled.location!, cancelled.url).toString(), callback.redirectUri)).url,
    );
    expect(cancelledBack.searchParams.get('error')).toBe('access_denied');
  });

  it('answers a sign-in page without its interaction cookie, or a form of the wrong type, with a page and a 4xx', async () => {
    const stray = await fetch(`${identity.origin}/v1/signin/not-an-interaction`);
    expect(stray.status).toBe(400);
    expect(stray.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await stray.text()).toContain('Sign-in could not continue');
    expect(stray.headers.get('x-frame-options')).toBe('DENY');
    expect(stray.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(stray.headers.get('cache-control')).toBe('no-store');
    const json = await fetch(`${identity.origin}/v1/signin/not-an-interaction/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const unknownRoute = await fetch(`${identity.issuer}/no-such-endpoint`);
    expect(unknownRoute.status).toBe(404);
  });

  it('refuses a wrong client secret at the token endpoint with invalid_client', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const callbackUrl = await signIn(authorization, user.email);
    const wrong = await relyingParty(app, 'not-the-secret');
    expect(await oauthError(tokensFor(wrong, authorization, callbackUrl))).toEqual({ error: 'invalid_client', status: 401 });
    // The code was not spent by the failed attempt.
    expect((await tokensFor(config, authorization, callbackUrl)).access_token).toBeDefined();
  });

  it('refuses a replayed code with invalid_grant and revokes what the first exchange issued', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const callbackUrl = await signIn(authorization, user.email);
    const first = await tokensFor(config, authorization, callbackUrl);
    expect((await decide(first.access_token, 'split-project:read')).body.decision).toBe('allow');
    expect(await oauthError(tokensFor(config, authorization, callbackUrl))).toEqual({ error: 'invalid_grant', status: 400 });
    expect((await decide(first.access_token, 'split-project:read')).body).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
  });

  it('refuses an access token from the second it expires, with no tolerance', async () => {
    const user = await createUserWithPassword(identity, app);
    await grantRole(user.uid, 'scenario-modeller', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const { access_token: issued } = await tokensFor(config, authorization, await signIn(authorization, user.email));
    // The same token re-signed with identity's own key, ending when the test says.
    const header = decodeProtectedHeader(issued);
    const { alg } = header;
    if (alg === undefined) throw new Error('the access token names no algorithm');
    const signingKey = identity.app.get<OidcSecrets>(OIDC_SECRETS).signingKeys.find((key) => key.kid === header.kid)!;
    const endingAt = async (exp: number) =>
      new SignJWT({ ...decodeJwt(issued), exp }).setProtectedHeader({ ...header, alg }).sign(await importJWK(signingKey, alg));
    const now = Math.floor(Date.now() / 1000);
    expect((await decide(await endingAt(now + 60), 'split-project:read')).body.decision).toBe('allow');
    expect((await decide(await endingAt(now - 1), 'split-project:read')).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('refuses an expired code with invalid_grant', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const callbackUrl = await signIn(authorization, user.email);
    // Codes live 60 s; age this one past its expiry in the provider's storage.
    const aged = await identity.dataSource.query(
      `WITH aged AS (UPDATE oidc_model SET expires_at = now() - interval '1 second' WHERE model = 'AuthorizationCode' AND id = $1 RETURNING id) SELECT * FROM aged`,
      [callbackUrl.searchParams.get('code')],
    );
    expect(aged).toHaveLength(1);
    expect(await oauthError(tokensFor(config, authorization, callbackUrl))).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('tells a wrong password from an unknown user, and locks the account after five failures with a visible wait', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);

    const unknown = await browser.submit(login, { email: 'nobody@example.com', password: PASSWORD }, '/login');
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain('There is no account with this email address.');

    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('The password is not correct.');
      expect(wrong.text).toContain(attempt === 4 ? 'One attempt left' : `${5 - attempt} attempts left`);
    }
    const locked = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(locked.text).toContain('this account is locked. Try again in 15 minutes.');
    // While locked, even the right password does not sign in.
    const right = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    expect(right.status).toBe(429);

    // When the lock has run out, the right password works and clears the count.
    await identity.dataSource.query(`UPDATE user_password SET locked_until = now() - interval '1 second' WHERE uid = $1`, [user.uid]);
    const signedIn = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    expect(signedIn.status).toBe(303);
    expect(
      (await identity.dataSource.query('SELECT failed_attempts FROM user_password WHERE uid = $1', [user.uid]))[0].failed_attempts,
    ).toBe(0);
    // A failed check is whoever tried (known by address), not the account's owner; only the right password names the person.
    const audited = await identity.dataSource.query(
      `SELECT actor_kind AS "actorKind", actor_id AS "actorId", outcome FROM audit_entry WHERE action = 'signin.password' AND target = $1 ORDER BY id`,
      [user.uid],
    );
    expect(audited.map((row: { actorKind: string; outcome: string }) => [row.actorKind, row.outcome])).toEqual([
      ...Array(5).fill(['anonymous', 'failure']),
      ['human', 'success'],
    ]);
    expect(audited.slice(0, 5).every((row: { actorId: string }) => /^(::ffff:)?127\.0\.0\.1$|^::1$/.test(row.actorId))).toBe(true);
    expect(audited[5].actorId).toBe(user.uid);
  });

  it('refuses a login form without its CSRF token', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    const forged = await browser.submit(login, { email: user.email, password: PASSWORD, csrf: 'x'.repeat(43) }, '/login');
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form has expired.');
  });

  it('refuses a consent or cancel form without its CSRF token, and the interaction goes on untouched', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await relyingParty();
    const browser = new FormBrowser();
    const login = await browser.follow((await authorizationUrl(config)).url.toString(), callback.redirectUri);
    const forgedCancel = await browser.submit(login, { csrf: 'x'.repeat(43) }, '/abort');
    expect(forgedCancel.status).toBe(403);
    const afterLogin = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    const forged = await browser.submit(consent, { decision: 'allow', csrf: 'x'.repeat(43) }, '/consent');
    expect(forged.status).toBe(403);
    const allowed = await browser.submit(consent, { decision: 'allow' }, '/consent');
    expect(allowed.status).toBe(303);
  });

  it('shows no interaction but its own: another interaction’s cookie on this one’s address is refused', async () => {
    const config = await relyingParty();
    const start = async () => {
      const response = await fetch((await authorizationUrl(config)).url, { redirect: 'manual' });
      const cookie = response.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .join('; ');
      return { location: new URL(response.headers.get('location')!), cookie };
    };
    const [mine, other] = [await start(), await start()];
    expect((await fetch(mine.location, { headers: { Cookie: mine.cookie } })).status).toBe(200);
    const crossed = await fetch(mine.location, { headers: { Cookie: other.cookie } });
    expect(crossed.status).toBe(400);
    expect(await crossed.text()).not.toContain('type="password"');
  });

  it('stops a deleted app, or one whose key was revoked, from signing anyone in; their access tokens stop working', async () => {
    const partnerKey = await identity.newAppKey();
    const doomed = await registerPartnerApp(identity, [callback.redirectUri], partnerKey);
    const user = await createUserWithPassword(identity, doomed);
    await grantRole(user.uid, 'scenario-modeller', doomed.organizationId);
    const config = await relyingParty(doomed);
    const authorization = await authorizationUrl(config);
    const tokens = await tokensFor(config, authorization, await signIn(authorization, user.email));
    expect((await decide(tokens.access_token, 'split-project:read', doomed.organizationId)).body.decision).toBe('allow');

    await request(identity.server).delete(`/v1/apps/${doomed.registryId}`).set('Authorization', `Bearer ${doomed.appKey}`).expect(204);
    const response = await fetch((await authorizationUrl(config)).url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_client');
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toEqual({ error: 'invalid_client', status: 401 });
    expect((await decide(tokens.access_token, 'split-project:read', doomed.organizationId)).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });

    const other = await registerPartnerApp(identity, [callback.redirectUri]);
    const otherUser = await createUserWithPassword(identity, other);
    await grantRole(otherUser.uid, 'scenario-modeller', other.organizationId);
    const otherConfig = await relyingParty(other);
    const otherAuthorization = await authorizationUrl(otherConfig);
    const otherTokens = await tokensFor(otherConfig, otherAuthorization, await signIn(otherAuthorization, otherUser.email));
    expect((await decide(otherTokens.access_token, 'split-project:read', other.organizationId)).body.decision).toBe('allow');
    await request(identity.server)
      .post(`/v1/keys/${await keyIdOf(other.appKey)}/revoke`)
      .set(platform())
      .expect(200);
    const afterRevoke = await fetch((await authorizationUrl(otherConfig)).url, { redirect: 'manual' });
    expect(afterRevoke.status).toBe(400);
    expect(await afterRevoke.text()).toContain('invalid_client');
    expect((await decide(otherTokens.access_token, 'split-project:read', other.organizationId)).body).toMatchObject({
      decision: 'deny',
      reason: 'invalid_credential',
    });
  });

  it('gives a merged user’s tokens the survivor’s uid and roles', async () => {
    const survivor = await createUserWithPassword(identity, app);
    const merged = await createUserWithPassword(identity, app);
    await grantRole(survivor.uid, 'settlement-approver', app.organizationId);
    const config = await relyingParty();
    const authorization = await authorizationUrl(config);
    const before = await tokensFor(config, authorization, await signIn(authorization, merged.email));
    expect(decodeJwt(before.access_token)['uid']).toBe(merged.uid);
    expect((await decide(before.access_token)).body).toMatchObject({ decision: 'deny', reason: 'role_required' });

    await request(identity.server)
      .post('/v1/unified-users/merge')
      .set(platform())
      .send({ survivorUid: survivor.uid, mergedUid: merged.uid })
      .expect(201);

    // A token issued before the merge now stands for the survivor, with the survivor's roles.
    expect((await decide(before.access_token)).body).toMatchObject({
      decision: 'allow',
      reason: 'role:settlement-approver',
      subject: { kind: 'human', id: survivor.uid },
    });
    // Tokens issued after it carry the survivor's uid: by refresh, and by signing in again with the merged user's password.
    const refreshed = await oidc.refreshTokenGrant(config, before.refresh_token!, { resource: API_AUDIENCE });
    expect(decodeJwt(refreshed.access_token)).toMatchObject({
      uid: survivor.uid,
      roles: [{ role: 'settlement-approver', organizationId: app.organizationId }],
    });
    const again = await authorizationUrl(config);
    const after = await tokensFor(config, again, await signIn(again, merged.email));
    expect(after.claims()).toMatchObject({ sub: survivor.uid, uid: survivor.uid });
  });
});

async function keyIdOf(secret: string): Promise<string> {
  const prefix = secret.split('_')[2]!;
  const rows: { key_id: string }[] = await identity.dataSource.query('SELECT key_id FROM api_key_secret WHERE prefix = $1', [prefix]);
  return rows[0]!.key_id;
}
