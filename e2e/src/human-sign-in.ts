// Chapter 2 of the walkthrough: one of the partner's users sets a password through the link the
// partner asked for, then signs in through OIDC in headless Chromium; openid-client is the partner
// app (the relying party), and the access token it gets is for the standards API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as oidc from 'openid-client';
import { chromium, type BrowserContext } from 'playwright-core';
import { findChromium, STANDARDS_API_AUDIENCE } from '@stdreg/server-kit/testing';
import { call } from './http';
import type { Partner } from './partner-onboarding';
import type { Story } from './story';

export const PASSWORD = 'walk the whole platform through';

/** The partner app's redirect endpoint: it only has to answer, the test reads the code from the URL. */
export async function startCallback(): Promise<{ redirectUri: string; close(): Promise<void> }> {
  const server: Server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * A Chromium (findChromium: Debian's, or the packaged one), headless, a fresh profile, no network chatter
 * of its own; `javaScriptEnabled: false` proves the pages work without script.
 */
export async function launchBrowser(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'e2e-chromium-'));
  const browser = await findChromium();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    locale: 'en-US',
    args: browser.args,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function setPasswordAndSignIn(story: Story, partner: Partner, email: string, browser: BrowserContext): Promise<string> {
  const { identityUrl } = story.platform;
  const mirror = await call<{ items: { id: string; uid: string }[] }>(
    'GET',
    `${identityUrl}/v1/users?registryId=${partner.app.registryId}&email=${encodeURIComponent(email)}`,
    { token: partner.appKey, expect: 200 },
  );
  const user = mirror.body.items[0]!;
  const link = await call<{ setupUrl: string }>('POST', `${identityUrl}/v1/users/${user.id}/password-setup`, {
    token: partner.appKey,
    expect: 201,
  });
  const page = await browser.newPage();
  await page.goto(link.body.setupUrl);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('status').filter({ hasText: 'Your password is set.' }).waitFor();
  story.step('password set through the single-use link', { actor: `user ${user.uid}` });

  const issuer = new URL(`${identityUrl}/oidc`);
  const config = await oidc.discovery(issuer, partner.app.clientId, undefined, oidc.ClientSecretBasic(partner.clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: story.redirectUri,
    scope: 'openid profile email api',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: STANDARDS_API_AUDIENCE,
    ui_locales: 'en',
  });
  await page.goto(authorizationUrl.toString());
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.toString().startsWith(story.redirectUri));
  const callbackUrl = new URL(page.url());
  await page.close();
  const tokens = await oidc.authorizationCodeGrant(
    config,
    callbackUrl,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource: STANDARDS_API_AUDIENCE },
  );
  story.step('signed in through OIDC in Chromium', {
    actor: `user ${user.uid}`,
    clientId: partner.app.clientId,
    tokenType: tokens.token_type,
  });
  return tokens.access_token;
}
