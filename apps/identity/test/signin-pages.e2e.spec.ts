import * as oidc from 'openid-client';
import request from 'supertest';
import type { SigninFlow } from './support/signin-flow';
import { startSigninScene, type SigninScene } from './support/signin-scene';
import { FormBrowser, PASSWORD, createUserWithPassword, type PartnerApp, type SigninIdentity } from './support/signin-fixture';

// What a person meets on identity's pages, in both languages (the browser test screenshots them).
let scene: SigninScene;
let identity: SigninIdentity;
let callback: SigninScene['callback'];
let app: PartnerApp;
let flow: SigninFlow;

beforeAll(async () => {
  scene = await startSigninScene();
  ({ identity, callback, app, flow } = scene);
}, 60_000);
afterAll(() => scene?.close());

async function loginPage(browser: FormBrowser, extra: Record<string, string> = {}) {
  const authorization = await flow.authorizationUrl(await flow.relyingParty(app), extra);
  return { authorization, page: await browser.follow(authorization.url.toString(), callback.redirectUri) };
}

describe('the login page', () => {
  it('puts Cancel beside Sign in, and after a wrong password focuses the password field', async () => {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const { page } = await loginPage(browser);
    expect(page.text).toMatch(
      /<div class="actions">\s*<button type="submit">Sign in<\/button>\s*<button type="submit" class="secondary" formaction="[^"]+\/abort[^"]*" formnovalidate>Cancel<\/button>\s*<\/div>/,
    );
    expect(page.text).toMatch(/<input id="email"[^>]* autofocus/);
    const wrong = await browser.submit(page, { email: user.email, password: 'not the password at all' }, '/login');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toMatch(/<input id="password"[^>]* autofocus/);
    expect(wrong.text).not.toMatch(/<input id="email"[^>]* autofocus/);
    expect(wrong.text).toContain('value="' + user.email + '"');
  });

  it('runs the Chinese sentences of a wrong-password message together, as Chinese is written', async () => {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const { page } = await loginPage(browser, { ui_locales: 'zh-Hans' });
    const wrong = await browser.submit(page, { email: user.email, password: '这不是正确的密码啊' }, '/login');
    expect(wrong.text).toContain('密码不正确。再失败 4 次，账户将被锁定。');
    const other = new FormBrowser();
    const english = await other.submit((await loginPage(other)).page, { email: user.email, password: 'still not the password' }, '/login');
    expect(english.text).toContain('The password is not correct. 3 attempts left before the account is locked.');
  });
});

describe('the page language', () => {
  it('reads Accept-Language as the registry does: Q=0 refuses, * stands for the other language', async () => {
    for (const [header, htmlLang] of [
      ['zh;Q=0, en;q=0.5', 'en'],
      ['en;q=0, *', 'zh-Hans'],
      ['zh-cmn-Hans-CN', 'zh-Hans'],
      ['en;q=abc, zh;q=0.1', 'zh-Hans'],
    ]) {
      const { page } = await loginPage(new FormBrowser({ 'Accept-Language': header! }));
      expect({ header, lang: /<html lang="([^"]+)"/.exec(page.text)?.[1] }).toEqual({ header, lang: htmlLang });
    }
  });

  it('falls back from a ?lang= it does not speak to the ui_locales the app asked for', async () => {
    const browser = new FormBrowser();
    const { page } = await loginPage(browser, { ui_locales: 'zh-Hans' });
    const unsupported = await browser.get(`${page.url.split('?')[0]}?lang=fr`);
    expect(/<html lang="([^"]+)"/.exec(unsupported.text)?.[1]).toBe('zh-Hans');
  });
});

describe('the consent page', () => {
  it('says what is confirmed when the app asks for nothing new, instead of an empty list', async () => {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const config = await flow.relyingParty(app);
    await flow.signIn(await flow.authorizationUrl(config), user.email, PASSWORD, browser);
    // The same app asks again with prompt=consent: the grant already holds everything.
    const again = await flow.authorizationUrl(config);
    const consent = await browser.follow(again.url.toString(), callback.redirectUri);
    expect(consent.text).toContain('asks you to confirm that it may go on using the access you gave it before. Nothing new is asked.');
    expect(consent.text).not.toContain('<ul></ul>');
    const zh = await browser.follow((await flow.authorizationUrl(config, { ui_locales: 'zh-Hans' })).url.toString(), callback.redirectUri);
    expect(zh.text).toContain('没有新的请求。');
  });
});

describe('the consent page of an agent', () => {
  /** A public client registered by RFC 7591 asks for the gateway's scopes; the person signs in and meets the consent page. */
  async function agentConsentPage(locale: 'en' | 'zh-Hans') {
    const registration = await fetch(`${identity.issuer}/reg`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: [callback.redirectUri] }),
    });
    expect(registration.status).toBe(201);
    const clientId = ((await registration.json()) as { client_id: string }).client_id;
    const user = await createUserWithPassword(identity, app);
    const url = new URL(`${identity.issuer}/auth`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      scope: 'registry:read projects:read projects:draft offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      prompt: 'consent',
      ui_locales: locale,
    }))
      url.searchParams.set(name, value);
    const browser = new FormBrowser();
    const login = await browser.follow(url.toString(), callback.redirectUri);
    const afterLogin = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    expect(consent.text).toContain('name="decision" value="allow"');
    return { clientId, text: visibleText(consent.text) };
  }

  it('names the agent and its client id, lists what it may do in the person’s organizations, and what it can never do', async () => {
    const { clientId, text } = await agentConsentPage('en');
    expect(text).toContain('Allow an agent to act for you');
    expect(text).toContain("Desk Agent is an agent: software that will act for you through the platform's tools.");
    expect(text).toContain(clientId);
    expect(text).toContain('This agent registered itself here: its name is what it says about itself.');
    expect(text).toContain('If you allow, Desk Agent may:');
    expect(text).toContain('use the tools that read the standards registry');
    expect(text).toContain('read your organizations: their split projects, settlement runs and equity ledgers');
    expect(text).toContain('draft split projects in your organizations');
    expect(text).toContain('stay connected when you are away');
    expect(text).toMatch(
      /It can never approve anything or activate a split project create a rule version post a settlement pay, or write equity/,
    );
  });

  it('says the same in Chinese', async () => {
    const { clientId, text } = await agentConsentPage('zh-Hans');
    expect(text).toContain('允许智能体代表您操作');
    expect(text).toContain('Desk Agent 是一个智能体');
    expect(text).toContain(clientId);
    expect(text).toContain('在您所在的组织中起草分账项目');
    expect(text).toContain('它永远不能');
    expect(text).toContain('结算过账');
    expect(text).toContain('付款或写入权益');
  });
});

describe('the password-setup pages', () => {
  it('keeps the email whole on the form, and leads on to the app that asked when the password is set', async () => {
    const email = `ana-maria.lopez-${Date.now()}@example.com`;
    const created = await request(identity.server)
      .post('/v1/users')
      .set('Authorization', `Bearer ${app.appKey}`)
      .send({ registryId: app.registryId, externalId: `x-${Date.now()}`, email, emailVerified: true, displayName: 'Ana', locale: 'en' })
      .expect(201);
    const setup = await request(identity.server)
      .post(`/v1/users/${created.body.id}/password-setup`)
      .set('Authorization', `Bearer ${app.appKey}`)
      .expect(201);
    const browser = new FormBrowser();
    const form = await browser.get(setup.body.setupUrl as string);
    expect(form.text).toContain(`<span class="email">${email}</span>`);
    const done = await browser.submit(form, { password: PASSWORD, confirm: PASSWORD });
    expect(done.text).toContain(`Sign in to Partner Portal with <span class="email">${email}</span>`);
    expect(done.text).toContain(`<a class="button" href="${new URL(callback.redirectUri).origin}">Go to Partner Portal</a>`);
  });
});

describe('an app whose name is HTML', () => {
  it('shows the name as text on the login, consent and password-set pages', async () => {
    const name = '<img src=x onerror=alert(1)> & "Studio"';
    const key = await identity.newAppKey();
    const { body } = await request(identity.server)
      .post('/v1/apps')
      .set('Authorization', `Bearer ${key.secret}`)
      .send({ name, type: 'Traditional', redirectUris: [callback.redirectUri] })
      .expect(201);
    const hostileApp: PartnerApp = {
      appKey: key.secret,
      organizationId: key.organizationId,
      registryId: body.app.registryId as string,
      clientId: body.app.clientId as string,
      clientSecret: body.clientSecret as string,
    };
    const shown = '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Studio&quot;';
    const user = await createUserWithPassword(identity, hostileApp);
    const setup = await request(identity.server)
      .post(`/v1/users/${user.mirrorId}/password-setup`)
      .set('Authorization', `Bearer ${hostileApp.appKey}`)
      .expect(201);
    const setter = new FormBrowser();
    const done = await setter.submit(await setter.get(setup.body.setupUrl as string), { password: PASSWORD, confirm: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.text).toContain(`Sign in to ${shown}`);

    const browser = new FormBrowser();
    const authorization = await flow.authorizationUrl(await flow.relyingParty(hostileApp));
    const login = await browser.follow(authorization.url.toString(), callback.redirectUri);
    expect(login.text).toContain(shown);
    const afterLogin = await browser.submit(login, { email: user.email, password: PASSWORD }, '/login');
    const consent = await browser.follow(new URL(afterLogin.location!, afterLogin.url).toString(), callback.redirectUri);
    expect(consent.text).toContain(shown);
    for (const page of [done, login, consent]) expect(page.text).not.toContain('<img');
  });
});

describe('the sign-out page', () => {
  it('names the app that asks and offers the other language', async () => {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config, { scope: 'openid api' });
    const tokens = await flow.tokens(config, authorization, await flow.signIn(authorization, user.email, PASSWORD, browser));
    const logoutUrl = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: callback.redirectUri });
    const confirm = await browser.get(logoutUrl.toString());
    expect(confirm.text).toContain('Partner Portal asks to sign you out. Do you want to sign out?');
    const switchTo = /<nav><a href="([^"]+)" lang="zh-Hans"/.exec(confirm.text);
    expect(switchTo).not.toBeNull();
    const chinese = await browser.get(new URL(switchTo![1]!.replace(/&amp;/g, '&'), identity.origin).toString());
    expect(chinese.text).toContain('Partner Portal 请求让您退出登录。您要退出登录吗？');
  });

  it('is never framed nor stored, and neither is the page that says the person is signed out', async () => {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const config = await flow.relyingParty(app);
    const authorization = await flow.authorizationUrl(config);
    await flow.signIn(authorization, user.email, PASSWORD, browser);
    const question = await browser.get(`${identity.issuer}/session/end`);
    expect(question.text).toContain('Do you want to sign out?');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.text)![1]!;
    const confirmed = await browser.post(`${identity.issuer}/session/end/confirm`, { xsrf, logout: 'yes' });
    const signedOut = await browser.get(new URL(confirmed.location!, confirmed.url).toString());
    expect(signedOut.status).toBe(200);
    for (const page of [question, signedOut]) {
      expect(Object.fromEntries(page.headers)).toMatchObject({ 'cache-control': 'no-store', 'x-frame-options': 'DENY' });
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    }
  });
});

/** A page as a person reads it: tags out, entities back, white space collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
