import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { BrowserContext } from 'playwright-core';
import request from 'supertest';
import { launchChromium, type LaunchedChromium } from './support/chromium-browser';
import { SERVICE_TOKEN } from './support/identity-app';
import {
  API_AUDIENCE,
  PASSWORD,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type PartnerApp,
  type SigninIdentity,
  publishedKeys,
} from './support/signin-fixture';

// A real browser (Debian's Chromium, never a downloaded one) follows a sign-in that openid-client
// starts as the relying party. Screenshots of the login page land in tmp/screenshots (not committed).
const SCREENSHOTS = fileURLToPath(new URL('../../../tmp/screenshots', import.meta.url));

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let chromiumBrowser: LaunchedChromium;
let browser: BrowserContext;

beforeAll(async () => {
  identity = await startSigninIdentity();
  callback = await startCallbackServer();
  // A fresh profile, and no script: the pages must work without JavaScript.
  chromiumBrowser = await launchChromium({ locale: 'en-US', javaScriptEnabled: false });
  browser = chromiumBrowser.context;
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await chromiumBrowser?.close();
  await callback?.close();
  await identity?.close();
});

async function relyingParty(app: PartnerApp): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(identity.issuer), app.clientId, undefined, oidc.ClientSecretBasic(app.clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** Where a relying party sends the browser to sign in (scope openid only). */
async function openIdLoginUrl(app: PartnerApp, extra: Record<string, string> = {}): Promise<URL> {
  return oidc.buildAuthorizationUrl(await relyingParty(app), {
    redirect_uri: callback.redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...extra,
  });
}

describe('signing in with a browser', () => {
  it('registers an app, sets a password, signs in with Chromium, and the tokens check out down to the decision endpoint', async () => {
    // The partner registers its app, creates the user and asks for a password link; the user opens it in the browser.
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const bearer = { Authorization: `Bearer ${app.appKey}` };
    const email = `mei-${Date.now()}@example.com`;
    const { body: mirror } = await request(identity.server)
      .post('/v1/users')
      .set(bearer)
      .send({ registryId: app.registryId, externalId: 'mei', email, emailVerified: true, displayName: 'Mei', locale: 'en' })
      .expect(201);
    const { body: setup } = await request(identity.server).post(`/v1/users/${mirror.id}/password-setup`).set(bearer).expect(201);
    await browser.clearCookies();
    const setupPage = await browser.newPage();
    await setupPage.goto(setup.setupUrl);
    await setupPage.screenshot({ path: path.join(SCREENSHOTS, 'set-password-en.png'), fullPage: true });
    await setupPage.getByLabel('New password').fill(PASSWORD);
    await setupPage.getByLabel('Repeat the password').fill(PASSWORD);
    await setupPage.getByRole('button', { name: 'Set password' }).click();
    await expect(setupPage.getByRole('status').textContent()).resolves.toContain('Your password is set.');
    await setupPage.close();
    const user = { uid: mirror.uid as string, email };
    await request(identity.server)
      .post('/v1/role-bindings')
      .set('Authorization', `Bearer ${identity.platformKey}`)
      .send({ uid: user.uid, role: 'project-owner', organizationId: app.organizationId })
      .expect(201);

    const config = await relyingParty(app);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.redirectUri,
      scope: 'openid profile email offline_access api',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      resource: API_AUDIENCE,
      prompt: 'consent',
      ui_locales: 'en',
    });

    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    await page.screenshot({ path: path.join(SCREENSHOTS, 'login-en.png'), fullPage: true });
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.redirectUri));
    const callbackUrl = new URL(page.url());
    await page.close();

    const tokens = await oidc.authorizationCodeGrant(
      config,
      callbackUrl,
      { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
      { resource: API_AUDIENCE },
    );
    const keys = createLocalJWKSet(await publishedKeys(identity));
    const { payload: idToken } = await jwtVerify(tokens.id_token!, keys, { issuer: identity.issuer, audience: app.clientId });
    expect(idToken).toMatchObject({
      sub: user.uid,
      uid: user.uid,
      roles: [{ role: 'project-owner', organizationId: app.organizationId }],
      amr: ['pwd'],
    });
    const { payload: accessToken } = await jwtVerify(tokens.access_token, keys, {
      issuer: identity.issuer,
      audience: API_AUDIENCE,
      typ: 'at+jwt',
    });
    expect(accessToken).toMatchObject({
      uid: user.uid,
      roles: [{ role: 'project-owner', organizationId: app.organizationId }],
      client_id: app.clientId,
    });

    const { body: decision } = await request(identity.server)
      .post('/v1/decisions')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        credential: { kind: 'access_token', value: tokens.access_token },
        action: 'split-project:activate',
        resource: { organizationId: app.organizationId },
      })
      .expect(200);
    expect(decision).toMatchObject({ decision: 'allow', reason: 'role:project-owner', subject: { kind: 'human', id: user.uid } });
  });

  it('shows the login page in Chinese for ui_locales=zh-Hans, with labelled fields and errors a person can read', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    const authorizationUrl = await openIdLoginUrl(app, { ui_locales: 'zh-Hans' });
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(authorizationUrl.toString());
    expect(await page.getAttribute('html', 'lang')).toBe('zh-Hans');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'login-zh-Hans.png'), fullPage: true });
    await page.getByLabel('电子邮件地址').fill(user.email);
    await page.getByLabel('密码').fill('这不是正确的密码啊');
    await page.getByRole('button', { name: '登录' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('密码不正确。');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'login-zh-Hans-wrong-password.png'), fullPage: true });
    await page.close();
  });

  it.each(['en', 'zh-Hans'] as const)(
    'shows the people-facing pages in %s: set password and its way on, a failed login, consent with nothing new, sign-out',
    async (locale) => {
      const app = await registerPartnerApp(identity, [callback.redirectUri]);
      const shot = (name: string) => path.join(SCREENSHOTS, `${name}-${locale}.png`);
      const email = `ana-maria.lopez-garcia-${Date.now()}@example.com`;
      const { body: mirror } = await request(identity.server)
        .post('/v1/users')
        .set({ Authorization: `Bearer ${app.appKey}` })
        .send({ registryId: app.registryId, externalId: `ana-${locale}`, email, emailVerified: true, displayName: 'Ana', locale: 'en' })
        .expect(201);
      const { body: setup } = await request(identity.server)
        .post(`/v1/users/${mirror.id}/password-setup`)
        .set({ Authorization: `Bearer ${app.appKey}` })
        .expect(201);
      await browser.clearCookies();
      const page = await browser.newPage();
      await page.setViewportSize({ width: 420, height: 800 });
      await page.goto(`${setup.setupUrl}?lang=${locale}`);
      await page.screenshot({ path: shot('set-password'), fullPage: true });
      await page.locator('#password').fill(PASSWORD);
      await page.locator('#confirm').fill(PASSWORD);
      await page.locator('button[type=submit]').click();
      await page.locator('a.button').waitFor();
      await page.screenshot({ path: shot('set-password-done'), fullPage: true });

      await page.goto((await openIdLoginUrl(app, { ui_locales: locale })).toString());
      await page.locator('#email').fill(email);
      await page.locator('#password').fill('not the password at all');
      await page.locator('button[type=submit]:not(.secondary)').click();
      await page.getByRole('alert').waitFor();
      await page.screenshot({ path: shot('login-wrong-password'), fullPage: true });
      await page.locator('#password').fill(PASSWORD);
      await page.locator('button[type=submit]:not(.secondary)').click();
      await page.locator('button[name=decision][value=allow]').click();
      await page.waitForURL((url) => url.toString().startsWith(callback.redirectUri));

      await page.goto((await openIdLoginUrl(app, { ui_locales: locale, prompt: 'consent' })).toString());
      await page.locator('button[name=decision][value=allow]').waitFor();
      await expect(page.locator('main').textContent()).resolves.toContain(locale === 'en' ? 'Nothing new is asked.' : '没有新的请求。');
      await page.screenshot({ path: shot('consent-nothing-new'), fullPage: true });

      await page.goto(`${identity.issuer}/session/end?client_id=${app.clientId}&ui_locales=${locale}`);
      await expect(page.locator('main').textContent()).resolves.toContain('Partner Portal');
      await page.screenshot({ path: shot('sign-out'), fullPage: true });
      await page.close();
    },
  );

  it.each(['en', 'zh-Hans'] as const)(
    "shows an agent's consent page in %s: who the agent is, what it may do, what it can never do",
    async (locale) => {
      const registration = await fetch(`${identity.issuer}/reg`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: [callback.redirectUri] }),
      });
      expect(registration.status).toBe(201);
      const { client_id: clientId } = (await registration.json()) as { client_id: string };
      const user = await createUserWithPassword(identity, await registerPartnerApp(identity, [callback.redirectUri]));
      const url = new URL(`${identity.issuer}/auth`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callback.redirectUri,
        scope: 'registry:read projects:read projects:draft offline_access',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        prompt: 'consent',
        ui_locales: locale,
      }).toString();
      await browser.clearCookies();
      const page = await browser.newPage();
      await page.setViewportSize({ width: 420, height: 800 });
      await page.goto(url.toString());
      await page.locator('#email').fill(user.email);
      await page.locator('#password').fill(PASSWORD);
      await page.locator('button[type=submit]:not(.secondary)').click();
      await page.locator('button[name=decision][value=allow]').waitFor();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        locale === 'en' ? 'Allow an agent to act for you' : '允许智能体代表您操作',
      );
      await expect(page.getByRole('region', { name: locale === 'en' ? 'It can never' : '它永远不能' }).textContent()).resolves.toContain(
        locale === 'en' ? 'post a settlement' : '结算过账',
      );
      await expect(page.locator('main').textContent()).resolves.toContain(clientId);
      await page.screenshot({ path: path.join(SCREENSHOTS, `agent-consent-${locale}.png`), fullPage: true });
      await page.close();
    },
  );

  it('chooses Chinese from Accept-Language when the client names no ui_locales', async () => {
    const authorizationUrl = await openIdLoginUrl(await registerPartnerApp(identity, [callback.redirectUri]));
    await browser.clearCookies();
    const page = await browser.newPage();
    // As a browser set to Chinese sends it.
    await page.route('**/*', (route) =>
      route.continue({ headers: { ...route.request().headers(), 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' } }),
    );
    await page.goto(authorizationUrl.toString());
    await expect(page.getByRole('heading').first().textContent()).resolves.toBe('登录');
    await page.close();
  });
});
