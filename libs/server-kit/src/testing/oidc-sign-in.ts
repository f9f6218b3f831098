// A person signing in through identity's OpenID Provider the way a partner app makes them: the pages
// driven by FormBrowser (no browser needed), openid-client as the relying party, PKCE S256, and an
// access token for the standards API as the answer. For cross-service tests of formal writes.
import * as oidc from 'openid-client';
import { FormBrowser } from './form-browser';

export const STANDARDS_API_AUDIENCE = 'urn:stdreg:standards-api';

export interface RelyingPartyClient {
  identityUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Sets the password on the page a set-password link opens; fails unless the page accepts it. */
export async function setPasswordThroughLink(setupUrl: string, password: string): Promise<void> {
  const browser = new FormBrowser();
  const done = await browser.submit(await browser.get(setupUrl), { password, confirm: password });
  if (done.status !== 200) throw new Error(`setting the password answered ${done.status}: ${done.text.slice(0, 300)}`);
}

/**
 * Logs in and consents on identity's pages; answers the access token for the standards API.
 * `authorizationParameters` go into the authorization request (e.g. `max_age`, `prompt`).
 */
export async function signInWithForms(
  client: RelyingPartyClient,
  email: string,
  password: string,
  authorizationParameters: Record<string, string> = {},
): Promise<string> {
  return (await signInForTokens(client, email, password, authorizationParameters)).accessToken;
}

/** As signInWithForms, answering the ID token beside the access token. */
export async function signInForTokens(
  client: RelyingPartyClient,
  email: string,
  password: string,
  authorizationParameters: Record<string, string> = {},
): Promise<{ accessToken: string; idToken: string }> {
  const config = await oidc.discovery(
    new URL(`${client.identityUrl}/oidc`),
    client.clientId,
    undefined,
    oidc.ClientSecretBasic(client.clientSecret),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirectUri,
    scope: 'openid api',
    resource: STANDARDS_API_AUDIENCE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...authorizationParameters,
  });
  const browser = new FormBrowser();
  const login = await browser.follow(url.toString(), client.redirectUri);
  const afterLogin = await browser.submit(login, { email, password }, '/login');
  if (!afterLogin.location) throw new Error(`the login page answered ${afterLogin.status}: ${afterLogin.text.slice(0, 300)}`);
  const consent = await browser.follow(new URL(afterLogin.location, afterLogin.url).toString(), client.redirectUri);
  const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
  if (!afterConsent.location) throw new Error(`the consent page answered ${afterConsent.status}`);
  const back = await browser.follow(new URL(afterConsent.location, afterConsent.url).toString(), client.redirectUri);
  const tokens = await oidc.authorizationCodeGrant(
    config,
    new URL(back.url),
    { pkceCodeVerifier: verifier, idTokenExpected: true },
    { resource: STANDARDS_API_AUDIENCE },
  );
  return { accessToken: tokens.access_token, idToken: tokens.id_token! };
}

/**
 * An agent host's sign-in for a person: registers a public client by RFC 7591 (loopback redirect), logs
 * in and consents on identity's pages, and answers the access token for `resource` (the gateway's MCP URL)
 * with `scope`, and the agent's client id.
 */
export async function signInAsAgent(
  identityUrl: string,
  redirectUri: string,
  person: { email: string; password: string },
  resource: string,
  scope: string,
): Promise<{ accessToken: string; clientId: string; refreshToken: string | undefined }> {
  const registered = await fetch(`${identityUrl}/oidc/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Agent',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (registered.status !== 201) throw new Error(`registering the agent answered ${registered.status}: ${await registered.text()}`);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const config = await oidc.discovery(new URL(`${identityUrl}/oidc`), clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    resource,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const browser = new FormBrowser();
  const login = await browser.follow(url.toString(), redirectUri);
  const afterLogin = await browser.submit(login, person, '/login');
  if (!afterLogin.location) throw new Error(`the login page answered ${afterLogin.status}: ${afterLogin.text.slice(0, 300)}`);
  const consent = await browser.follow(new URL(afterLogin.location, afterLogin.url).toString(), redirectUri);
  const afterConsent = await browser.submit(consent, { decision: 'allow' }, '/consent');
  if (!afterConsent.location) throw new Error(`the consent page answered ${afterConsent.status}`);
  const back = await browser.follow(new URL(afterConsent.location, afterConsent.url).toString(), redirectUri);
  const tokens = await oidc.authorizationCodeGrant(
    config,
    new URL(back.url),
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource },
  );
  return { accessToken: tokens.access_token, clientId, refreshToken: tokens.refresh_token };
}
