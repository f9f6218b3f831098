import { createPrivateKey, createPublicKey } from 'node:crypto';
import { SignJWT, decodeJwt, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { generateSigningKey, type PrivateJwk } from '../src/platform/secrets/oidc-secrets';
import { SERVICE_TOKEN } from './support/identity-app';
import { signinFlow, type SigninFlow } from './support/signin-flow';
import {
  API_AUDIENCE,
  FormBrowser,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type PartnerApp,
  type SigninIdentity,
} from './support/signin-fixture';

// The decision endpoint's access-token check against the classic confusions: tokens that are not access
// tokens of this issuer for the asking service, signed as an attacker could (no key, the public key) or as
// identity itself would (its own key, to show which claim the check refuses on).
const key = generateSigningKey('key-a');
const MCP_RESOURCE = 'http://127.0.0.1:3002/mcp';

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let app: PartnerApp;
let flow: SigninFlow;
let issued: { accessToken: string; idToken: string; claims: JWTPayload };

beforeAll(async () => {
  identity = await startSigninIdentity({}, [key]);
  callback = await startCallbackServer();
  app = await registerPartnerApp(identity, [callback.redirectUri]);
  flow = signinFlow(identity, callback.redirectUri);
  const user = await createUserWithPassword(identity, app);
  await request(identity.server)
    .post('/v1/role-bindings')
    .set('Authorization', `Bearer ${identity.platformKey}`)
    .send({ uid: user.uid, role: 'scenario-modeller', organizationId: app.organizationId })
    .expect(201);
  const config = await flow.relyingParty(app);
  const authorization = await flow.authorizationUrl(config);
  const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email));
  issued = { accessToken: tokens.access_token, idToken: tokens.id_token!, claims: decodeJwt(tokens.access_token) };
});
afterAll(async () => {
  await callback?.close();
  await identity?.close();
});

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function signWith(signingKey: PrivateJwk, claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid, typ: 'at+jwt', ...header })
    .sign(createPrivateKey({ key: signingKey, format: 'jwk' }));
}

const decision = async (token: string) => (await flow.decide(token, 'split-project:read', app.organizationId)).body;
const refused = { decision: 'deny', reason: 'invalid_credential' };

describe('what the decision endpoint takes for an access token', () => {
  it('accepts the access token the provider issued (the baseline every refusal below departs from)', async () => {
    expect(await decision(issued.accessToken)).toMatchObject({ decision: 'allow' });
  });

  it('refuses the ID token of the same sign-in, signed by the same key', async () => {
    expect(decodeJwt(issued.idToken).aud).toBe(app.clientId);
    expect(await decision(issued.idToken)).toMatchObject(refused);
  });

  it('refuses a token with the access token claims but an ID token or logout token type, or no type', async () => {
    for (const typ of ['JWT', 'logout+jwt', 'secevent+jwt']) {
      expect(await decision(await signWith(key, issued.claims, { typ }))).toMatchObject(refused);
    }
    const untyped = await new SignJWT(issued.claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .sign(createPrivateKey({ key, format: 'jwk' }));
    expect(await decision(untyped)).toMatchObject(refused);
  });

  it('refuses an unsigned token (alg none) and one signed HS256 with the public key as the secret', async () => {
    const header = { typ: 'at+jwt', kid: key.kid };
    expect(await decision(`${b64({ ...header, alg: 'none' })}.${b64(issued.claims)}.`)).toMatchObject(refused);
    const publicPem = createPublicKey({ key, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
    for (const secret of [publicPem, JSON.stringify(createPublicKey({ key, format: 'jwk' }).export({ format: 'jwk' }))]) {
      const hs = await new SignJWT(issued.claims).setProtectedHeader({ ...header, alg: 'HS256' }).sign(new TextEncoder().encode(secret));
      expect(await decision(hs)).toMatchObject(refused);
    }
  });

  it('refuses a kid no configured key has, and reads a token without kid against the configured keys', async () => {
    expect(await decision(await signWith(key, issued.claims, { kid: 'key-z' }))).toMatchObject(refused);
    const noKid = await new SignJWT(issued.claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .sign(createPrivateKey({ key, format: 'jwk' }));
    expect(await decision(noKid)).toMatchObject({ decision: 'allow' });
  });

  it("refuses another service's audience, another issuer, a not-yet-valid token, and missing or mistyped claims", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { sub, gid, jti, client_id: clientId } = issued.claims;
    const variants: JWTPayload[] = [
      { ...issued.claims, aud: MCP_RESOURCE },
      { ...issued.claims, aud: app.clientId },
      { ...issued.claims, aud: [] },
      { ...issued.claims, iss: `${identity.issuer}/` },
      { ...issued.claims, nbf: now + 60 },
      { ...issued.claims, exp: String(issued.claims.exp) as unknown as number },
      { ...issued.claims, sub: undefined },
      { ...issued.claims, gid: undefined },
      { ...issued.claims, jti: undefined },
      { ...issued.claims, client_id: undefined },
      { ...issued.claims, sub: [sub] as unknown as string },
      { ...issued.claims, gid: [gid] },
      { ...issued.claims, jti: { id: jti } as unknown as string },
      { ...issued.claims, client_id: [clientId] },
      { ...issued.claims, act: 'an-agent' },
      { ...issued.claims, act: { sub: 7 } },
      { ...issued.claims, act: { sub: clientId }, subject_token_jti: [jti] },
    ];
    for (const claims of variants) {
      expect([JSON.stringify(claims), await decision(await signWith(key, claims))]).toEqual([
        JSON.stringify(claims),
        expect.objectContaining(refused),
      ]);
    }
    expect(await decision(await signWith(key, { ...issued.claims, aud: [API_AUDIENCE] }))).toMatchObject({ decision: 'allow' });
  });

  it('refuses a token forged by editing the payload of an issued one, and one too long for the endpoint with a 400', async () => {
    const [header, , signature] = issued.accessToken.split('.');
    // Two `sub` members: JSON.parse keeps the last. The signature was over the original payload, so nothing verifies.
    const duplicated = `{"sub":"${issued.claims.sub}",${JSON.stringify({ ...issued.claims, sub: '01900000-0000-7000-8000-000000000001' }).slice(1)}`;
    expect(await decision(`${header}.${b64(duplicated)}.${signature}`)).toMatchObject(refused);
    await request(identity.server)
      .post('/v1/decisions')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        credential: { kind: 'access_token', value: `${issued.accessToken}${'a'.repeat(20_000)}` },
        action: 'split-project:read',
        resource: { organizationId: app.organizationId },
      })
      .expect(400);
  });
});

describe('an access token for the API whose grant does not hold the API scope', () => {
  it('is refused: a sign-in consented to without `api` is no access to the standards API', async () => {
    const user = await createUserWithPassword(identity, app);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ uid: user.uid, role: 'scenario-modeller', organizationId: app.organizationId })
      .expect(201);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config, { scope: 'openid' });
    const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email));
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe(API_AUDIENCE);
    expect(claims['scope'] ?? '').not.toContain('api');
    expect(await decision(tokens.access_token)).toMatchObject(refused);
  });
});

describe('a password set again through a new link (a reset)', () => {
  it("ends the person's sign-ins: the refresh token is refused and the access token denied at once", async () => {
    const user = await createUserWithPassword(identity, app);
    await request(identity.server)
      .post('/v1/role-bindings')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ uid: user.uid, role: 'scenario-modeller', organizationId: app.organizationId })
      .expect(201);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const signedIn = new FormBrowser();
    const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email, undefined, signedIn));
    expect(await decision(tokens.access_token)).toMatchObject({ decision: 'allow' });
    const beforeReset = await signedIn.follow((await flow.authorizationUrl(config)).url.toString(), callback.redirectUri);
    expect(beforeReset.text).toContain('name="decision"');

    const setup = await request(identity.server)
      .post(`/v1/users/${user.mirrorId}/password-setup`)
      .set('Authorization', `Bearer ${app.appKey}`)
      .expect(201);
    const browser = new FormBrowser();
    const page = await browser.get(setup.body.setupUrl as string);
    const newPassword = 'another long and unusual passphrase';
    expect((await browser.submit(page, { password: newPassword, confirm: newPassword })).status).toBe(200);

    expect(await decision(tokens.access_token)).toMatchObject(refused);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: API_AUDIENCE })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The browser's session ended too: the next authorization asks for the password.
    const afterReset = await signedIn.follow((await flow.authorizationUrl(config)).url.toString(), callback.redirectUri);
    expect(afterReset.text).toContain('name="password"');
    expect(afterReset.text).not.toContain('name="decision"');
    // The new password signs in as before.
    const again = await flow.authorizationUrl(config);
    const fresh = await flow.tokens(config, again, await flow.signIn(again, user.email, newPassword));
    expect(await decision(fresh.access_token)).toMatchObject({ decision: 'allow' });
  });
});

describe('other credentials at the decision endpoint and at the provider', () => {
  it("refuses a person's token for an organization the person has no role in (the question's organization is B, the role A's)", async () => {
    const other = await identity.newAppKey();
    expect((await flow.decide(issued.accessToken, 'split-project:read', other.organizationId)).body).toMatchObject({
      decision: 'deny',
      reason: 'role_required',
    });
  });

  it('refuses the userinfo (opaque) access token as a credential, and the API token at userinfo', async () => {
    const user = await createUserWithPassword(identity, app);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const code = await flow.signIn(authorization, user.email);
    const opaque = await oidc.authorizationCodeGrant(config, code, {
      pkceCodeVerifier: authorization.verifier,
      expectedState: authorization.state,
    });
    expect(opaque.access_token.split('.')).toHaveLength(1);
    expect(await decision(opaque.access_token)).toMatchObject(refused);
    const userinfo = await fetch(`${identity.issuer}/me`, { headers: { Authorization: `Bearer ${issued.accessToken}` } });
    expect(userinfo.status).toBe(401);
  });

  it('serves no introspection endpoint, and revokes nothing for an ID token', async () => {
    const discovery = (await (await fetch(`${identity.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery['introspection_endpoint']).toBeUndefined();
    const revoked = await fetch(`${identity.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, token: issued.idToken }),
    });
    expect(revoked.status).toBe(200);
    expect(await decision(issued.accessToken)).toMatchObject({ decision: 'allow' });
  });

  it('takes a key only exactly as issued: no other class, case, padding or a service credential', async () => {
    const key = app.appKey;
    const asKey = async (value: string) =>
      (
        await request(identity.server)
          .post('/v1/decisions')
          .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
          .send({ credential: { kind: 'api_key', value }, action: 'split-project:read', resource: { organizationId: app.organizationId } })
          .expect(200)
      ).body;
    expect(await asKey(key)).toMatchObject({ subject: { kind: 'app_key' } });
    const [, , prefix, ...secret] = key.split('_');
    for (const variant of [
      `stdreg_platform_${prefix}_${secret.join('_')}`,
      key.toUpperCase(),
      `stdreg_app_${prefix!.toUpperCase()}_${secret.join('_')}`,
      `${key} `,
      ` ${key}`,
      `${key}\n`,
      `${key}=`,
      key.slice(0, -1),
      SERVICE_TOKEN,
    ]) {
      expect([variant, await asKey(variant)]).toEqual([variant, expect.objectContaining(refused)]);
    }
    expect(await decision(key)).toMatchObject(refused);
  });
});
