// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs): two replicas
// cannot share an embedded database.
import type { NestExpressApplication } from '@nestjs/platform-express';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { freePort } from '@stdreg/server-kit/testing';
import { IdentityConfig } from '../../src/platform/config/identity.config';
import { IDENTITY } from '../../src/identity.service';
import { generateSigningKey, type PrivateJwk } from '../../src/platform/secrets/oidc-secrets';
import {
  API_AUDIENCE,
  FormBrowser,
  PASSWORD,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type Page,
  type PartnerApp,
  type SigninIdentity,
} from '../support/signin-fixture';
import { signinFlow, type SigninFlow } from '../support/signin-flow';

const keyA = generateSigningKey('key-a');
const keyB = generateSigningKey('key-b');

let first: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let app: PartnerApp;
let flow: SigninFlow;
const replicas: NestExpressApplication[] = [];

beforeAll(async () => {
  first = await startSigninIdentity({}, [keyA]);
  callback = await startCallbackServer();
  app = await registerPartnerApp(first, [callback.redirectUri]);
  flow = signinFlow(first, callback.redirectUri);
});
afterAll(async () => {
  for (const instance of replicas) await instance.close();
  await callback?.close();
  await first?.close();
});

/** Another identity on the same database with the same issuer and secrets (signing keys as given), on its own port. */
async function replica(signingKeys: PrivateJwk[] = [keyA]): Promise<string> {
  const port = await freePort();
  const config = loadConfig(IdentityConfig, {
    LOG_LEVEL: 'error',
    BOOTSTRAP_PLATFORM_KEY: 'off',
    REDIS_URL: process.env['REDIS_URL']!,
    REDIS_KEY_PREFIX: first.redisPrefix,
    ...first.database.env,
    ...first.signinEnv,
    OIDC_JWKS: JSON.stringify({ keys: signingKeys }),
  });
  const instance = await createServiceApp(IDENTITY, config);
  await instance.listen(port, '127.0.0.1');
  replicas.push(instance);
  return `http://127.0.0.1:${port}`;
}

/** The relying party talking to `origin` instead of the issuer's own host (as behind a load balancer). */
function relyingPartyVia(origin: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(first.issuer), app.clientId, undefined, oidc.ClientSecretBasic(app.clientSecret), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: (url: string, options: oidc.CustomFetchOptions) => fetch(url.replace(first.origin, origin), options as RequestInit),
  });
}

/** The page as if it had been served by `origin`: its forms post there. */
const servedBy = (page: Page, origin: string): Page => ({ ...page, url: page.url.replace(first.origin, origin) });
const next = (page: Page) => new URL(page.location!, page.url).toString();

describe('sign-in across identity replicas and restarts', () => {
  it('keeps the interaction, session, code and refresh token whichever replica a request reaches', async () => {
    const other = await replica();
    const user = await createUserWithPassword(first, app);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const browser = new FormBrowser();

    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    const afterLogin = await browser.submit(servedBy(login, other), { email: user.email, password: PASSWORD }, '/login');
    expect(afterLogin.status).toBe(303);
    const consent = await browser.follow(next(afterLogin), callback.redirectUri);
    const afterConsent = await browser.submit(servedBy(consent, other), { decision: 'allow' }, '/consent');
    const back = await browser.follow(next(afterConsent), callback.redirectUri);

    const tokens = await oidc.authorizationCodeGrant(
      await relyingPartyVia(other),
      new URL(back.url),
      { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state },
      { resource: API_AUDIENCE },
    );
    expect(decodeJwt(tokens.access_token)['uid']).toBe(user.uid);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeDefined();
  });

  it('keeps tokens through a restart with a rotated key: the previous key still verifies, the new one signs', async () => {
    const user = await createUserWithPassword(first, app);
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email));
    expect(decodeProtectedHeader(tokens.access_token).kid).toBe('key-a');

    const rotated = await replica([keyB, keyA]);
    const rotatedConfig = await relyingPartyVia(rotated);
    const refreshed = await oidc.refreshTokenGrant(rotatedConfig, tokens.refresh_token!, { resource: API_AUDIENCE });
    expect(decodeProtectedHeader(refreshed.access_token).kid).toBe('key-b');
    expect(decodeJwt(refreshed.access_token)['uid']).toBe(user.uid);
  });
});
