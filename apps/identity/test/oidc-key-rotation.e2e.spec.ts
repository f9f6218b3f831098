import { createPrivateKey } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';
import request from 'supertest';
import { generateSigningKey, type PrivateJwk } from '../src/platform/secrets/oidc-secrets';
import { signinFlow, type SigninFlow } from './support/signin-flow';
import {
  API_AUDIENCE,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type PartnerApp,
  type SigninIdentity,
  publishedKeys,
} from './support/signin-fixture';

// Rotation: a new key goes first in OIDC_JWKS (it signs from then on) and the previous one stays
// behind it until the tokens it signed have expired. Here the previous key (key-a) signs the same
// claims the provider issued with the new key (key-b), as a token from before the rotation would be.
const previousKey = generateSigningKey('key-a');
const newKey = generateSigningKey('key-b');
const unknownKey = generateSigningKey('key-x');

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let app: PartnerApp;
let flow: SigninFlow;
let issued: { accessToken: string; claims: JWTPayload };

beforeAll(async () => {
  identity = await startSigninIdentity({}, [newKey, previousKey]);
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
  issued = { accessToken: tokens.access_token, claims: decodeJwt(tokens.access_token) };
});
afterAll(async () => {
  await callback?.close();
  await identity?.close();
});

function signWith(key: PrivateJwk, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })
    .sign(createPrivateKey({ key, format: 'jwk' }));
}

const decision = async (token: string) => (await flow.decide(token, 'split-project:read', app.organizationId)).body;

describe('signing key rotation', () => {
  it('publishes both keys and signs new tokens with the first', async () => {
    const jwks = await publishedKeys(identity);
    expect(jwks.keys.map((key) => key.kid)).toEqual(['key-b', 'key-a']);
    expect(decodeProtectedHeader(issued.accessToken).kid).toBe('key-b');
    expect((await decision(issued.accessToken)).decision).toBe('allow');
  });

  it('still accepts a token signed by the previous key during the overlap', async () => {
    const fromBefore = await signWith(previousKey, issued.claims);
    expect(await decision(fromBefore)).toMatchObject({ decision: 'allow', subject: { kind: 'human', id: issued.claims['uid'] } });
  });

  it('refuses a token signed by a key that is not configured, or changed after signing', async () => {
    expect(await decision(await signWith(unknownKey, issued.claims))).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
    const [header, , signature] = issued.accessToken.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...issued.claims, uid: '01900000-0000-7000-8000-000000000001' })).toString(
      'base64url',
    );
    expect(await decision(`${header}.${forgedPayload}.${signature}`)).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
  });

  it('refuses tokens of another issuer or audience, expired ones, and ones that are not access tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [
      { ...issued.claims, iss: 'https://elsewhere.example/oidc' },
      { ...issued.claims, aud: 'urn:other:api' },
      { ...issued.claims, iat: now - 7200, exp: now - 3600 },
    ]) {
      expect(await decision(await signWith(newKey, claims))).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
    }
    const idTokenShaped = await new SignJWT(issued.claims)
      .setProtectedHeader({ alg: 'RS256', kid: newKey.kid })
      .sign(createPrivateKey({ key: newKey, format: 'jwk' }));
    expect(await decision(idTokenShaped)).toMatchObject({ decision: 'deny', reason: 'invalid_credential' });
    expect(issued.claims['aud']).toBe(API_AUDIENCE);
  });
});
