// A person at the other end of an agent's authorization request: in Chromium (script may be off), signs
// in on identity's page, reads the consent page and allows; answers the authorization code the agent's
// loopback redirect receives.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { ROOT } from '@stdreg/server-kit/testing';

/** Where the pages are photographed (tmp/screenshots, not committed). */
export const SCREENSHOTS = path.join(ROOT, 'tmp/screenshots');

export interface ConsentOutcome {
  code: string;
  /** The consent page's main text as the person read it; null when identity asked nothing and went straight back. */
  consentText: string | null;
}

export interface PersonAtTheBrowser {
  email: string;
  password: string;
}

/**
 * Opens `authorizationUrl`, signs `person` in (unless the browser's identity session is still alive),
 * screenshots the consent page as `<screenshot>.png` when named, allows, and reads the code (and checks
 * the state) off the redirect to `redirectUri`.
 */
export async function signInAndConsent(
  browser: BrowserContext,
  authorizationUrl: URL,
  person: PersonAtTheBrowser,
  redirect: { redirectUri: string; expectedState?: string | undefined },
  screenshot?: string,
): Promise<ConsentOutcome> {
  const page = await browser.newPage();
  try {
    const answer = await page.goto(authorizationUrl.toString());
    if (!answer?.ok())
      throw new Error(`the authorization request answered ${answer?.status()}: ${(await page.locator('main').textContent())?.trim()}`);
    if (await page.getByLabel('Email address').isVisible()) {
      await page.getByLabel('Email address').fill(person.email);
      await page.getByLabel('Password', { exact: true }).fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    const allow = page.getByRole('button', { name: 'Allow' });
    const returned = (url: URL) => url.toString().startsWith(redirect.redirectUri);
    // Either the consent page, or straight back to the agent when identity has nothing to ask.
    await Promise.race([allow.waitFor({ timeout: 15_000 }), page.waitForURL(returned, { timeout: 15_000 })]).catch(async () => {
      throw new Error(`neither a consent page nor the agent after signing in: ${(await page.locator('body').textContent())?.trim()}`);
    });
    let consentText: string | null = null;
    if (!returned(new URL(page.url()))) {
      consentText = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (screenshot) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`), fullPage: true });
      }
      await allow.click();
      await page.waitForURL(returned, { timeout: 15_000 }).catch(async () => {
        throw new Error(`allowing did not return to the agent: ${page.url()} ${(await page.locator('body').textContent())?.trim()}`);
      });
    }
    const back = new URL(page.url());
    const error = back.searchParams.get('error');
    if (error) throw new Error(`the authorization ended in ${error}: ${back.searchParams.get('error_description') ?? ''}`);
    if (redirect.expectedState !== undefined && back.searchParams.get('state') !== redirect.expectedState)
      throw new Error(`the redirect carried state ${back.searchParams.get('state')}, not the one the agent sent`);
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`the redirect carried no code: ${back.toString()}`);
    return { code, consentText };
  } finally {
    await page.close();
  }
}
