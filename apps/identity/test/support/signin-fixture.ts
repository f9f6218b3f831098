import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONWebKeySet } from 'jose';
import request from 'supertest';
import { generateSigningKey, type PrivateJwk } from '../../src/platform/secrets/oidc-secrets';
import { FormBrowser, freePort } from '@stdreg/server-kit/testing';
import { startIdentity, type RunningIdentity } from './identity-app';

export { FormBrowser, type Page } from '@stdreg/server-kit/testing';

export const API_AUDIENCE = 'urn:stdreg:standards-api';
export const PASSWORD = 'a long and unusual passphrase';

/** A JSON document over HTTP (discovery, JWKS), typed by the caller. */
export async function getJson<T>(url: string): Promise<T> {
  return (await fetch(url)).json() as Promise<T>;
}

/** The provider's published keys. */
export function publishedKeys(identity: { issuer: string }): Promise<JSONWebKeySet> {
  return getJson<JSONWebKeySet>(`${identity.issuer}/jwks`);
}

/** A port nobody listens on right now. */
/** The env that gives identity its sign-in secrets, with `signingKeys` in that order (the first signs). */
export function signinEnv(issuer: string, signingKeys: PrivateJwk[]): Record<string, string> {
  return {
    OIDC_ISSUER: issuer,
    OIDC_JWKS: JSON.stringify({ keys: signingKeys }),
    OIDC_COOKIE_KEYS: randomBytes(32).toString('base64url'),
    OIDC_CLIENT_SECRET_KEY: randomBytes(32).toString('base64url'),
  };
}

export interface SigninIdentity extends RunningIdentity {
  issuer: string;
  origin: string;
  signingKeys: PrivateJwk[];
  /** The sign-in env it runs with (issuer and secrets), for a replica of it. */
  signinEnv: Record<string, string>;
}

/** identity listening on a real port (browsers and relying parties need one), with the issuer on that port. */
export async function startSigninIdentity(
  env: Record<string, string> = {},
  signingKeys = [generateSigningKey('key-a')],
): Promise<SigninIdentity> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const issuer = `${origin}/oidc`;
  // Sign-in tests create many users with one app key: rate limits are tested elsewhere.
  const limits = {
    RATE_LIMIT_APP_PER_MINUTE: '6000',
    RATE_LIMIT_APP_BURST: '6000',
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '6000',
    SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: '6000',
    OIDC_REGISTRATIONS_PER_IP_PER_HOUR: '6000',
    OIDC_FLOWS_PER_IP_PER_MINUTE: '6000',
  };
  const secrets = signinEnv(issuer, signingKeys);
  const identity = await startIdentity({ ...limits, ...secrets, ...env });
  await identity.app.listen(port, '127.0.0.1');
  return { ...identity, issuer, origin, signingKeys, signinEnv: secrets };
}

/** A relying party's callback that only says "back": the tests read the code from the URL. */
export async function startCallbackServer(): Promise<{ redirectUri: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><title>back</title><p>Back at the app.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PartnerApp {
  appKey: string;
  organizationId: string;
  registryId: string;
  clientId: string;
  clientSecret: string;
}

/** A partner registers its app through POST /v1/apps, with an app key from the waitlist's path. */
export async function registerPartnerApp(
  identity: RunningIdentity,
  redirectUris: string[],
  key?: { secret: string; organizationId: string },
): Promise<PartnerApp> {
  const partner = key ?? (await identity.newAppKey());
  const { body } = await request(identity.server)
    .post('/v1/apps')
    .set('Authorization', `Bearer ${partner.secret}`)
    .send({ name: 'Partner Portal', type: 'Traditional', redirectUris })
    .expect(201);
  return {
    appKey: partner.secret,
    organizationId: partner.organizationId,
    registryId: body.app.registryId as string,
    clientId: body.app.clientId as string,
    clientSecret: body.clientSecret as string,
  };
}

/** A user of the partner's app (a mirror record in its registry, with a fresh verified email unless given). */
export async function createMirrorRecord(
  identity: RunningIdentity,
  app: PartnerApp,
  email = `u-${randomBytes(4).toString('hex')}@example.com`,
): Promise<{ id: string; uid: string; email: string }> {
  const { body } = await request(identity.server)
    .post('/v1/users')
    .set('Authorization', `Bearer ${app.appKey}`)
    .send({
      registryId: app.registryId,
      externalId: `x-${randomBytes(4).toString('hex')}`,
      email,
      emailVerified: true,
      displayName: 'Ana',
      locale: 'en',
    })
    .expect(201);
  return { id: body.id as string, uid: body.uid as string, email };
}

/** A fresh partner's new user with a password-setup link issued to it (not spent); answers the user's uid. */
export async function userWithPasswordLink(identity: RunningIdentity): Promise<string> {
  const partner = await registerPartnerApp(identity, ['https://portal.example/callback']);
  const user = await createMirrorRecord(identity, partner);
  await request(identity.server)
    .post(`/v1/users/${user.id}/password-setup`)
    .set({ Authorization: `Bearer ${partner.appKey}` })
    .expect(201);
  return user.uid;
}

export interface SignedUpUser {
  mirrorId: string;
  uid: string;
  email: string;
}

/** The partner creates a user, asks for its password link, and the user sets the password on the page. */
export async function createUserWithPassword(
  identity: SigninIdentity,
  app: PartnerApp,
  password = PASSWORD,
  email = `user-${randomBytes(4).toString('hex')}@example.com`,
): Promise<SignedUpUser> {
  const created = await request(identity.server)
    .post('/v1/users')
    .set('Authorization', `Bearer ${app.appKey}`)
    .send({
      registryId: app.registryId,
      externalId: `ext-${randomBytes(4).toString('hex')}`,
      email,
      emailVerified: true,
      displayName: 'Li Wei',
      locale: 'zh-Hans',
    })
    .expect(201);
  const setup = await request(identity.server)
    .post(`/v1/users/${created.body.id}/password-setup`)
    .set('Authorization', `Bearer ${app.appKey}`)
    .expect(201);
  const browser = new FormBrowser();
  const page = await browser.get(setup.body.setupUrl as string);
  if (page.status !== 200) throw new Error(`setup page answered ${page.status}`);
  const done = await browser.submit(page, { password, confirm: password });
  if (done.status !== 200) throw new Error(`setting the password answered ${done.status}: ${done.text}`);
  return { mirrorId: created.body.id as string, uid: created.body.uid as string, email };
}
