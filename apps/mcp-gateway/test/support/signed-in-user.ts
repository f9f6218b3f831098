// A person of a partner's organization who signs in through identity's OpenID Provider (the built
// artifact) and gets an access token for standards-api: the only kind of credential a formal write
// (activation, settlement posting) accepts, so the tests can post what agents may then only read.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPasswordThroughLink, signInWithForms } from '@stdreg/server-kit/testing';
import type { Platform } from './platform';

const PASSWORD = 'a long and unusual passphrase';

export interface Partner {
  organizationId: string;
  key: string;
  /** Signs a new user with these roles in the partner's organization in; answers the access token. */
  signedInUser(roles: string[]): Promise<string>;
  close(): Promise<void>;
}

async function call(platform: Platform, key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${platform.identityUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

export async function startPartner(platform: Platform): Promise<Partner> {
  const callback: Server = createServer((_req, res) => res.end('back'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const { secret: key, organizationId } = await platform.newAppKey();
  const registered = await call(platform, key, 'POST', '/v1/apps', {
    name: 'Studio Portal',
    type: 'Traditional',
    redirectUris: [redirectUri],
  });
  const app = registered['app'] as { clientId: string; registryId: string };
  const clientSecret = registered['clientSecret'] as string;

  const signedInUser = async (roles: string[]): Promise<string> => {
    const email = `person-${randomBytes(4).toString('hex')}@example.com`;
    const user = await call(platform, key, 'POST', '/v1/users', {
      registryId: app.registryId,
      externalId: `ext-${randomBytes(4).toString('hex')}`,
      email,
      emailVerified: true,
      displayName: 'Mei',
      locale: 'en',
    });
    const setup = await call(platform, key, 'POST', `/v1/users/${user['id'] as string}/password-setup`);
    await setPasswordThroughLink(setup['setupUrl'] as string, PASSWORD);
    for (const role of roles)
      await call(platform, platform.platformKey, 'POST', '/v1/role-bindings', { uid: user['uid'], role, organizationId });
    return signInWithForms({ identityUrl: platform.identityUrl, clientId: app.clientId, clientSecret, redirectUri }, email, PASSWORD);
  };
  return { organizationId, key, signedInUser, close: () => new Promise((resolve) => callback.close(() => resolve())) };
}
