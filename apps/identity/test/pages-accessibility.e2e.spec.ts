import axe from 'axe-core';
import * as oidc from 'openid-client';
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import {
  PASSWORD,
  createMirrorRecord,
  createUserWithPassword,
  registerPartnerApp,
  startCallbackServer,
  startSigninIdentity,
  type PartnerApp,
  type SigninIdentity,
} from './support/signin-fixture';
import { launchChromium, type LaunchedChromium } from './support/chromium-browser';

// identity's pages graded by rules nobody here wrote: axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules, in both
// languages and in their error states; then what axe cannot see (keyboard only, errors tied to fields, titles).
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type Locale = 'en' | 'zh-Hans';

/** The few browser globals the checks use inside the page (the project compiles without the DOM library). */
interface InPage {
  axe: typeof axe;
  document: { activeElement: InPageElement; documentElement: { scrollWidth: number; clientWidth: number } };
  getComputedStyle(element: InPageElement): Record<'outlineStyle' | 'outlineWidth' | 'outlineColor' | 'boxShadow' | 'borderColor', string>;
}
interface InPageElement {
  tagName: string;
  id: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  blur(): void;
  focus(options: { focusVisible: boolean }): void;
}

/** What each page's title (and its h1) must say, in each language: what the page is. */
const TITLES_EN = {
  setPassword: 'Set your password',
  setPasswordError: 'Error: Set your password',
  passwordSet: 'Your password is set',
  linkInvalid: 'This password link cannot be used',
  signIn: 'Sign in',
  signInError: 'Error: Sign in',
  consent: 'Allow access',
  agentConsent: 'Allow an agent to act for you',
  error: 'Sign-in could not continue',
  signOut: 'Sign out',
};
const TITLES: Record<Locale, typeof TITLES_EN> = {
  en: TITLES_EN,
  'zh-Hans': {
    setPassword: '设置密码',
    setPasswordError: '错误：设置密码',
    passwordSet: '密码已设置',
    linkInvalid: '此密码链接无法使用',
    signIn: '登录',
    signInError: '错误：登录',
    consent: '授权访问',
    agentConsent: '允许智能体代表您操作',
    error: '无法继续登录',
    signOut: '退出登录',
  },
};

let identity: SigninIdentity;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let chromiumBrowser: LaunchedChromium;
let browser: BrowserContext;

beforeAll(async () => {
  identity = await startSigninIdentity();
  callback = await startCallbackServer();
  // The pages carry no script and forbid any (CSP); axe is a script, so this browser runs it past the policy.
  chromiumBrowser = await launchChromium({ bypassCSP: true });
  browser = chromiumBrowser.context;
}, 60_000);
afterAll(async () => {
  await chromiumBrowser?.close();
  await callback?.close();
  await identity?.close();
});

/** Every problem found on the page: axe's WCAG A/AA violations (and what it could not decide), sideways scrolling, a wrong `<html lang>`, a title that is not `title` and an h1 that does not say it. */
async function audit(page: Page, locale: Locale, name: string, title: string): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(
    (tags) =>
      (globalThis as unknown as InPage).axe.run({ runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] }),
    WCAG_AA,
  );
  if (results.passes.length === 0) return [`${name}: axe passed no rule at all (did it run?)`];
  const problems = [
    ...results.violations.map((result) => `${name}: ${result.id} (${result.help}) at ${targets(result)}`),
    ...results.incomplete.map((result) => `${name}: axe could not decide ${result.id} (${result.help}) at ${targets(result)}`),
  ];
  // WCAG 1.4.10: at 320 CSS pixels wide (400% zoom of a 1280 pixel window) nothing scrolls sideways.
  const width = await page.evaluate(() => {
    const root = (globalThis as unknown as InPage).document.documentElement;
    return [root.scrollWidth, root.clientWidth];
  });
  if (width[0]! > width[1]!) problems.push(`${name}: ${width[0]} pixels wide in a ${width[1]} pixel window`);
  const lang = await page.getAttribute('html', 'lang');
  if (lang !== locale) problems.push(`${name}: <html lang="${lang}">, not ${locale}`);
  const shown = await page.title();
  if (shown !== title) problems.push(`${name}: the title is "${shown}", not "${title}"`);
  const headings = (await page.locator('h1').allTextContents()).map((heading) => heading.trim());
  if (headings.length !== 1 || !title.endsWith(headings[0]!))
    problems.push(`${name}: the h1 ${JSON.stringify(headings)} does not say "${title}"`);
  return problems;
}

function targets(result: axe.Result): string {
  return result.nodes.map((node) => node.target.join(' ')).join(', ');
}

async function authorizationUrl(clientId: string, params: Record<string, string>): Promise<string> {
  const url = new URL(`${identity.issuer}/auth`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callback.redirectUri,
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  return url.toString();
}

const partnerSignIn = (app: PartnerApp, locale: Locale, extra: Record<string, string> = {}) =>
  authorizationUrl(app.clientId, { scope: 'openid profile email', ui_locales: locale, ...extra });

async function registerAgent(redirectUris: string[]): Promise<string> {
  const registration = await fetch(`${identity.issuer}/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: redirectUris }),
  });
  expect(registration.status).toBe(201);
  return ((await registration.json()) as { client_id: string }).client_id;
}

async function passwordLink(app: PartnerApp): Promise<{ url: string; uid: string; email: string }> {
  const user = await createMirrorRecord(identity, app);
  const { body } = await request(identity.server)
    .post(`/v1/users/${user.id}/password-setup`)
    .set({ Authorization: `Bearer ${app.appKey}` })
    .expect(201);
  return { url: body.setupUrl as string, uid: user.uid, email: user.email };
}

/** Does `act` (a click, a key) and waits for the page it leads to: the page before may have the same roles and ids. */
async function nextPage(page: Page, act: () => Promise<void>): Promise<void> {
  const loaded = page.waitForEvent('load');
  await act();
  await loaded;
}

/** Signs in by the form (no audit): for the pages that come after it. */
async function signIn(page: Page, email: string): Promise<void> {
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  await nextPage(page, () => page.locator('button[type=submit]:not(.secondary)').click());
}

describe.each(['en', 'zh-Hans'] as const)('every page in %s', (locale) => {
  const titles = TITLES[locale];

  it('meets the WCAG 2.2 A and AA rules axe checks, in the right language, with a title that says what the page is', async () => {
    const problems: string[] = [];
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.setViewportSize({ width: 320, height: 640 });

    // Setting a password: the form, its error (two different passwords), done; then a used and an expired link.
    const link = await passwordLink(app);
    await page.goto(`${link.url}?lang=${locale}`);
    problems.push(...(await audit(page, locale, 'set password', titles.setPassword)));
    await expect(autocompleteOf(page)).resolves.toEqual({ username: 'username', password: 'new-password', confirm: 'new-password' });
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#confirm').fill(`${PASSWORD} and more`);
    await nextPage(page, () => page.locator('button[type=submit]').click());
    await page.locator('#form-error').waitFor();
    problems.push(...(await audit(page, locale, 'set password, passwords differ', titles.setPasswordError)));
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#confirm').fill(PASSWORD);
    await nextPage(page, () => page.locator('button[type=submit]').click());
    await page.locator('[role=status]').waitFor();
    problems.push(...(await audit(page, locale, 'password set', titles.passwordSet)));
    await page.goto(`${link.url}?lang=${locale}`);
    problems.push(...(await audit(page, locale, 'used password link', titles.linkInvalid)));
    const expiring = await passwordLink(app);
    await identity.dataSource.query(`UPDATE password_setup SET expires_at = now() - interval '1 second' WHERE uid = $1`, [expiring.uid]);
    await page.goto(`${expiring.url}?lang=${locale}`);
    problems.push(...(await audit(page, locale, 'expired password link', titles.linkInvalid)));

    // Signing in: the form, a wrong password, an unknown account; consent for a partner app, and when nothing is new.
    await page.goto(await partnerSignIn(app, locale));
    problems.push(...(await audit(page, locale, 'sign in', titles.signIn)));
    await expect(autocompleteOf(page)).resolves.toEqual({ email: 'username', password: 'current-password' });
    await page.locator('#email').fill(link.email);
    await page.locator('#password').fill('not the password at all');
    await nextPage(page, () => page.locator('button[type=submit]:not(.secondary)').click());
    await page.getByRole('alert').waitFor();
    problems.push(...(await audit(page, locale, 'sign in, wrong password', titles.signInError)));
    await page.locator('#email').fill('nobody-here@example.com');
    await page.locator('#password').fill(PASSWORD);
    await nextPage(page, () => page.locator('button[type=submit]:not(.secondary)').click());
    await page.getByRole('alert').waitFor();
    problems.push(...(await audit(page, locale, 'sign in, unknown account', titles.signInError)));
    await signIn(page, link.email);
    await page.locator('button[name=decision][value=allow]').waitFor();
    problems.push(...(await audit(page, locale, 'consent', titles.consent)));
    await page.locator('button[name=decision][value=allow]').click();
    await page.waitForURL((url) => url.toString().startsWith(callback.redirectUri));
    await page.goto(await partnerSignIn(app, locale, { prompt: 'consent' }));
    await page.locator('button[name=decision][value=allow]').waitFor();
    problems.push(...(await audit(page, locale, 'consent, nothing new', titles.consent)));

    // Signing out: the question, then the answer.
    await page.goto(`${identity.issuer}/session/end?client_id=${app.clientId}&ui_locales=${locale}`);
    problems.push(...(await audit(page, locale, 'sign out', titles.signOut)));
    await nextPage(page, () => page.locator('button[name=logout][value=yes]').click());
    await page.locator('[role=status]').waitFor();
    problems.push(...(await audit(page, locale, 'signed out', titles.signOut)));

    // An agent's consent, with a loopback redirect (the warning) and the scopes it may never exceed.
    const agent = await registerAgent([callback.redirectUri]);
    await page.goto(await authorizationUrl(agent, { scope: 'registry:read projects:read offline_access', ui_locales: locale }));
    await signIn(page, link.email);
    await page.locator('button[name=decision][value=allow]').waitFor();
    problems.push(...(await audit(page, locale, 'agent consent', titles.agentConsent)));

    // Broken authorization requests: an unknown client, a redirect URI not registered, an agent's refused request
    // held here with its link, and an interaction this browser did not start.
    await page.goto(await authorizationUrl('no-such-client', { scope: 'openid', ui_locales: locale }));
    problems.push(...(await audit(page, locale, 'unknown client', titles.error)));
    await page.goto(
      (await partnerSignIn(app, locale)).replace(
        encodeURIComponent(callback.redirectUri),
        encodeURIComponent('https://elsewhere.example/cb'),
      ),
    );
    problems.push(...(await audit(page, locale, 'unregistered redirect URI', titles.error)));
    const httpsAgent = await registerAgent(['https://agent.example/callback']);
    const refused = new URL(await authorizationUrl(httpsAgent, { scope: 'registry:read', ui_locales: locale, prompt: 'none-such' }));
    refused.searchParams.set('redirect_uri', 'https://agent.example/callback');
    await page.goto(refused.toString());
    problems.push(...(await audit(page, locale, "an agent's refused request", titles.error)));
    await browser.clearCookies();
    await page.goto(`${identity.origin}/v1/signin/not-this-browsers-interaction?lang=${locale}`);
    problems.push(...(await audit(page, locale, 'interaction of another browser', titles.error)));
    await page.close();

    expect(problems).toEqual([]);
  }, 60_000);

  it('can be signed in to and consented on with the keyboard alone (Tab and Enter), focus always visible', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(await partnerSignIn(app, locale, { prompt: 'consent' }));

    // The email field has the focus on arrival (autofocus, applied as the page renders); typing, Tab to the password, Tab to Sign in, Enter.
    await page.locator('#email:focus').waitFor({ timeout: 5_000 });
    await expect(focused(page)).resolves.toMatchObject({ id: 'email', visible: true });
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ id: 'password', visible: true });
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toMatchObject({ text: titles.signIn, visible: true });
    await nextPage(page, () => page.keyboard.press('Enter'));
    await page.locator('button[name=decision][value=allow]').waitFor();

    // Nothing has the focus on arrival: Tab walks from the top, every stop visibly focused, to Allow; Enter.
    const stops: Focused[] = [];
    while (stops.length < 10 && stops.at(-1)?.value !== 'allow') {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
    }
    expect(stops.map((stop) => stop.tag)).toEqual(['A', 'BUTTON']);
    expect(stops.filter((stop) => !stop.visible)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.toString().startsWith(callback.redirectUri));
    await page.close();
  }, 30_000);

  it('ties each error to the fields it is about (aria-describedby to a role=alert) and marks them invalid', async () => {
    const app = await registerPartnerApp(identity, [callback.redirectUri]);
    const user = await createUserWithPassword(identity, app);
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(await partnerSignIn(app, locale));
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill('not the password at all');
    await nextPage(page, () => page.locator('button[type=submit]:not(.secondary)').click());
    await page.getByRole('alert').waitFor();
    const wrongPassword = locale === 'en' ? 'The password is not correct.' : '密码不正确。';
    await expect(errorOf(page, '#password')).resolves.toEqual({ invalid: 'true', alert: expect.stringContaining(wrongPassword) });
    // The focus is on the field to correct (autofocus: it may come just after the load).
    await page.locator('#password:focus').waitFor({ timeout: 5_000 });

    const link = await passwordLink(app);
    await page.goto(`${link.url}?lang=${locale}`);
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#confirm').fill(`${PASSWORD} and more`);
    await nextPage(page, () => page.locator('button[type=submit]').click());
    await page.getByRole('alert').waitFor();
    const mismatch = locale === 'en' ? 'The two passwords are not the same.' : '两次输入的密码不一致。';
    for (const field of ['#password', '#confirm']) {
      await expect(errorOf(page, field)).resolves.toEqual({ invalid: 'true', alert: expect.stringContaining(mismatch) });
    }
    await page.close();
  }, 30_000);
});

interface Focused {
  tag: string;
  id: string;
  value: string;
  text: string;
  /** The focused element looks different from itself unfocused: an outline, a shadow or a border of its own. */
  visible: boolean;
}

/** The element with the focus, and whether its focus can be seen. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as InPage;
    const element = document.activeElement;
    const look = () => {
      const style = getComputedStyle(element);
      return [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow, style.borderColor].join('|');
    };
    const focusedLook = getComputedStyle(element);
    const outlined = focusedLook.outlineStyle !== 'none' && parseFloat(focusedLook.outlineWidth) > 0;
    const before = look();
    element.blur();
    const after = look();
    element.focus({ focusVisible: true });
    return {
      tag: element.tagName,
      id: element.id,
      value: element.getAttribute('value') ?? '',
      text: element.textContent?.trim() ?? '',
      visible: outlined && before !== after,
    };
  });
}

/** A field's aria-invalid and the text of the role=alert elements its aria-describedby names. */
async function errorOf(page: Page, selector: string): Promise<{ invalid: string | null; alert: string }> {
  const field = page.locator(selector);
  const alerts: string[] = [];
  for (const id of ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean)) {
    const described = page.locator(`[id="${id}"][role=alert]`);
    if ((await described.count()) === 1) alerts.push((await described.textContent()) ?? '');
  }
  return { invalid: await field.getAttribute('aria-invalid'), alert: alerts.join(' ') };
}

/** The autocomplete token of each field a person or a password manager fills (WCAG 1.3.5), by name. */
async function autocompleteOf(page: Page): Promise<Record<string, string | null>> {
  const fields: Record<string, string | null> = {};
  for (const input of await page.locator('input:not([name=csrf])').all()) {
    fields[(await input.getAttribute('name')) ?? ''] = await input.getAttribute('autocomplete');
  }
  return fields;
}
