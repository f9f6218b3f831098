import * as oidc from 'openid-client';
import request from 'supertest';
import { SERVICE_TOKEN } from './identity-app';
import { API_AUDIENCE, FormBrowser, PASSWORD, type PartnerApp, type SigninIdentity } from './signin-fixture';

export interface Authorization {
  url: URL;
  verifier: string;
  state: string;
}

/** A relying party's side of a sign-in against a test identity, with the pages driven by FormBrowser. */
export function signinFlow(identity: SigninIdentity, redirectUri: string) {
  return {
    relyingParty(client: PartnerApp, secret = client.clientSecret): Promise<oidc.Configuration> {
      return oidc.discovery(new URL(identity.issuer), client.clientId, undefined, oidc.ClientSecretBasic(secret), {
        execute: [oidc.allowInsecureRequests],
      });
    },

    async authorizationUrl(config: oidc.Configuration, extra: Record<string, string> = {}): Promise<Authorization> {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email offline_access api',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        resource: API_AUDIENCE,
        prompt: 'consent',
        ...extra,
      });
      return { url, verifier, state };
    },

    /** Signs in through the pages (login, then consent) and answers the callback URL with the code. */
    async signIn(authorization: Authorization, email: string, password = PASSWORD, browser = new FormBrowser()): Promise<URL> {
      const login = await browser.follow(authorization.url.toString(), redirectUri);
      expect(login.status).toBe(200);
      const afterLogin = await browser.submit(login, { email, password }, '/login');
      expect(afterLogin.status).toBe(303);
      const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
      expect(consent.text).toContain('name="decision" value="allow"');
      const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
      const back = await browser.follow(new URL(afterConsent.location!, afterConsent.url).toString(), redirectUri);
      return new URL(back.url);
    },

    tokens(config: oidc.Configuration, authorization: Authorization, callbackUrl: URL) {
      return oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state },
        { resource: API_AUDIENCE },
      );
    },

    /** What identity's decision endpoint answers standards-api for this access token. */
    decide(token: string, action: string, organizationId: string) {
      return request(identity.server)
        .post('/v1/decisions')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({ credential: { kind: 'access_token', value: token }, action, resource: { organizationId } })
        .expect(200);
    },
  };
}

export type SigninFlow = ReturnType<typeof signinFlow>;
