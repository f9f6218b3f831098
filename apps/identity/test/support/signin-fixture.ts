import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONWebKeySet } from 'jose';
import request from 'supertest';
import { generateSigningKey, type PrivateJwk } from '../../src/oidc/oidc-secrets';
import { startIdentity, type RunningIdentity } from './identity-app';

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
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
export async function startSigninIdentity(env: Record<string, string> = {}, signingKeys = [generateSigningKey('key-a')]): Promise<SigninIdentity> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const issuer = `${origin}/oidc`;
  // Sign-in tests create many users with one app key: rate limits are tested elsewhere.
  const limits = { RATE_LIMIT_APP_PER_MINUTE: '6000', RATE_LIMIT_APP_BURST: '6000', RATE_LIMIT_APP_WRITES_PER_MINUTE: '6000' };
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
export async function registerPartnerApp(identity: RunningIdentity, redirectUris: string[], key?: { secret: string; organizationId: string }): Promise<PartnerApp> {
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

export interface SignedUpUser {
  mirrorId: string;
  uid: string;
  email: string;
}

/** The partner creates a user, asks for its password link, and the user sets the password on the page. */
export async function createUserWithPassword(identity: SigninIdentity, app: PartnerApp, password = PASSWORD): Promise<SignedUpUser> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const created = await request(identity.server)
    .post('/v1/users')
    .set('Authorization', `Bearer ${app.appKey}`)
    .send({ registryId: app.registryId, externalId: `ext-${randomBytes(4).toString('hex')}`, email, emailVerified: true, displayName: 'Li Wei', locale: 'zh-Hans' })
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

export interface Page {
  url: string;
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

/**
 * A minimal browser over fetch for tests that do not need Chromium: a cookie jar (path-scoped),
 * redirects followed by hand, and forms submitted with their hidden fields.
 */
export class FormBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  async get(url: string): Promise<Page> {
    return this.request(url, { method: 'GET' });
  }

  /** Follows redirects until the URL starts with `stopAt` (the relying party's callback) or a page is shown. */
  async follow(url: string, stopAt: string): Promise<Page> {
    let page = await this.get(url);
    for (let hops = 0; page.location && hops < 10; hops++) {
      const next = new URL(page.location, page.url).toString();
      if (next.startsWith(stopAt)) return { ...page, url: next };
      page = await this.get(next);
    }
    return page;
  }

  async post(url: string, fields: Record<string, string>): Promise<Page> {
    return this.request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }

  /** Submits the page's form whose action contains `actionPart` (the first form by default), adding `fields`. */
  async submit(page: Page, fields: Record<string, string>, actionPart = ''): Promise<Page> {
    const forms = [...page.text.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
    const form = forms.find((match) => match[1]!.includes(actionPart));
    if (!form) throw new Error(`no form with action ${actionPart} on ${page.url}`);
    const hidden = Object.fromEntries([...form[2]!.matchAll(/<input type="hidden" name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, unescape(m[2]!)]));
    const action = new URL(unescape(form[1]!), page.url).toString();
    return this.request(action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, ...fields }).toString(),
    });
  }

  private async request(url: string, init: RequestInit): Promise<Page> {
    const target = new URL(url);
    const cookie = [...this.cookies.entries()]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) } });
    for (const line of response.headers.getSetCookie()) this.store(line);
    return { url, status: response.status, text: await response.text(), location: response.headers.get('location'), headers: response.headers };
  }

  private store(line: string): void {
    const [pair, ...attributes] = line.split(';');
    const [name, ...value] = pair!.trim().split('=');
    const attribute = (key: string) => attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
    const expires = attribute('expires');
    if (attribute('max-age') === '0' || (expires && new Date(expires).getTime() < Date.now())) {
      this.cookies.delete(name!);
      return;
    }
    this.cookies.set(name!, { value: value.join('='), path: attribute('path') ?? '/' });
  }
}

function unescape(value: string): string {
  return value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
