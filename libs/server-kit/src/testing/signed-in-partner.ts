// A partner's app registered at a real identity (a built artifact), and people of its organization who
// sign in through identity's OpenID Provider the way the app makes them: the access tokens a formal
// write needs, for the tests of standards-api and of the gateway.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPasswordThroughLink, signInAsAgent, signInWithForms } from './oidc-sign-in';

const PASSWORD = 'a long and unusual passphrase';

export interface SignedInPartner {
  organizationId: string;
  /** The partner's App key. */
  appKey: string;
  /** A user of the partner's app with a password (set through the setup link) and these roles in the partner's organization. */
  userWithRoles(roles: string[]): Promise<{ uid: string; email: string }>;
  /** The password each of those users signs in with (a browser test types it on identity's page). */
  password: string;
  /** Signs the user in through the login and consent pages (with extra authorization parameters); answers the access token. */
  signIn(email: string, authorizationParameters?: Record<string, string>): Promise<string>;
  /** An agent host (registered by RFC 7591) signs the user in for the gateway at `mcpResource` with `scope`. */
  signInAgent(
    email: string,
    mcpResource: string,
    scope: string,
  ): Promise<{ accessToken: string; clientId: string; refreshToken: string | undefined }>;
  close(): Promise<void>;
}

/** Creates an organization, an App key and a registered app at identity (with its platform key). */
export async function startSignedInPartner(identity: { url: string; platformKey: string }): Promise<SignedInPartner> {
  const call = async (key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${identity.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const callback: Server = createServer((_req, res) => res.end('back'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const organization = await call(identity.platformKey, 'POST', '/v1/organizations', { name: `Studio ${randomBytes(3).toString('hex')}` });
  const organizationId = organization['id'] as string;
  const key = (await call(identity.platformKey, 'POST', '/v1/keys', { name: 'studio app', class: 'app', organizationId }))[
    'secret'
  ] as string;
  const registered = await call(key, 'POST', '/v1/apps', { name: 'Studio Portal', type: 'Traditional', redirectUris: [redirectUri] });
  const app = registered['app'] as { clientId: string; registryId: string };
  const client = { identityUrl: identity.url, clientId: app.clientId, clientSecret: registered['clientSecret'] as string, redirectUri };

  return {
    organizationId,
    appKey: key,
    async userWithRoles(roles) {
      const email = `person-${randomBytes(4).toString('hex')}@example.com`;
      const user = await call(key, 'POST', '/v1/users', {
        registryId: app.registryId,
        externalId: `ext-${randomBytes(4).toString('hex')}`,
        email,
        emailVerified: true,
        displayName: 'Mei',
        locale: 'en',
      });
      const setup = await call(key, 'POST', `/v1/users/${user['id'] as string}/password-setup`);
      await setPasswordThroughLink(setup['setupUrl'] as string, PASSWORD);
      for (const role of roles) await call(identity.platformKey, 'POST', '/v1/role-bindings', { uid: user['uid'], role, organizationId });
      return { uid: user['uid'] as string, email };
    },
    password: PASSWORD,
    signIn: (email, authorizationParameters = {}) => signInWithForms(client, email, PASSWORD, authorizationParameters),
    signInAgent: (email, mcpResource, scope) => signInAsAgent(identity.url, redirectUri, { email, password: PASSWORD }, mcpResource, scope),
    close: () => new Promise<void>((resolve) => callback.close(() => resolve())),
  };
}
