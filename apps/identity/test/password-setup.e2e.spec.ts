import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { KeyClass } from '@stdreg/contracts';
import { startIdentity, type RunningIdentity } from './support/identity-app';
import { createMirrorRecord, FormBrowser, PASSWORD, registerPartnerApp, signinEnv, type PartnerApp } from './support/signin-fixture';
import { generateSigningKey } from '../src/platform/secrets/oidc-secrets';
import { PasswordLinksRepository } from '../src/sign-in/passwords/password-links.repository';
import { PasswordsService } from '../src/sign-in/passwords/passwords.service';
import { hashPassword, verifyPassword } from '../src/sign-in/passwords/password-hash';

let identity: RunningIdentity;
let app: PartnerApp;
const logLines: string[] = [];
const realWrite = process.stdout.write.bind(process.stdout);

beforeAll(async () => {
  identity = await startIdentity({
    ...signinEnv('http://id.example.test/oidc', [generateSigningKey('k1')]),
    PASSWORD_SETUP_LINKS_IN_LOG: 'true',
    LOG_LEVEL: 'info',
    // These tests create many users and links with one app key: rate limits are tested elsewhere.
    RATE_LIMIT_APP_PER_MINUTE: '6000',
    RATE_LIMIT_APP_BURST: '6000',
    RATE_LIMIT_APP_WRITES_PER_MINUTE: '6000',
  });
  app = await registerPartnerApp(identity, ['https://portal.example/callback']);
});
// identity logs JSON lines on stdout: keep them to look for the printed link.
beforeEach(() => {
  logLines.length = 0;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    logLines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = realWrite;
});
afterAll(async () => {
  await identity?.close();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

const newMirror = (partner: PartnerApp, email?: string) => createMirrorRecord(identity, partner, email);

/** The set-password page is served under /v1 of this identity; the link's origin is the configured issuer's. */
function localPath(setupUrl: string): string {
  const url = new URL(setupUrl);
  expect(url.origin).toBe('http://id.example.test');
  return url.pathname;
}

/** The fullwidth form of printable ASCII text (U+FF01 to U+FF5E), which NFKC turns back. */
const fullwidthOf = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0));

async function openSetupPage(browser: FormBrowser, base: string, setupUrl: string, lang = '') {
  return browser.get(`${base}${localPath(setupUrl)}${lang}`);
}

describe('password setup links', () => {
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => identity.server.listen(0, '127.0.0.1', resolve));
    const address = identity.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });

  it('gives the partner a single-use link (also printed to the log in development) that sets an scrypt-hashed password', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    expect(setup).toEqual({
      uid: user.uid,
      loginEmail: user.email,
      expiresAt: expect.any(String),
      setupUrl: expect.stringMatching(/^http:\/\/id\.example\.test\/v1\/password-setup\/[A-Za-z0-9_-]{43}$/),
    });
    expect(new Date(setup.expiresAt).getTime() - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(logLines.some((line) => line.includes(setup.setupUrl))).toBe(true);

    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="password">New password</label>');
    // The page's URL holds the token: it must not leak as a referrer, be cached or be framed.
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const done = await browser.submit(page, { password: PASSWORD, confirm: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your password is set.');

    const [stored] = await identity.dataSource.query('SELECT login_email, password_hash FROM user_password WHERE uid = $1', [user.uid]);
    expect(stored.login_email).toBe(user.email);
    expect(stored.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(stored.password_hash).not.toContain(PASSWORD);

    const again = await openSetupPage(new FormBrowser(), base, setup.setupUrl);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link is not valid');
    const audit = await identity.dataSource.query(`SELECT action, actor_kind FROM audit_entry WHERE target = $1 ORDER BY id`, [user.uid]);
    expect(audit).toEqual([
      { action: 'users.password-setup', actor_kind: 'app_key' },
      { action: 'users.password-set', actor_kind: 'human' },
    ]);
  });

  it('refuses a weak or mistyped password with the reason, in the page’s language, and keeps the link usable', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl, '?lang=zh-Hans');
    expect(page.text).toContain('<html lang="zh-Hans">');
    const short = await browser.submit(page, { password: 'short pw', confirm: 'short pw' });
    expect(short.status).toBe(422);
    expect(short.text).toContain('密码至少需要 12 个字符，连续的空格算作一个。');
    const mismatch = await browser.submit(page, { password: PASSWORD, confirm: `${PASSWORD}!` });
    expect(mismatch.status).toBe(422);
    expect(mismatch.text).toContain('两次输入的密码不一致。');
    const withEmail = await browser.submit(page, { password: `my ${user.email} pw`, confirm: `my ${user.email} pw` });
    expect(withEmail.text).toContain('密码不能包含您的电子邮件地址。');
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
    expect((await browser.submit(page, { password: PASSWORD, confirm: PASSWORD })).status).toBe(200);
  });

  it('refuses a common, repeated, sequential or personal password with its reason in both languages, never echoing it', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl);
    expect(page.text).toContain('not a common or easily guessed password.');
    const refusals: [string, string, string][] = [
      // From the common-password list of zxcvbn-ts, not written here.
      ['qazwsxedcrfv', '', 'it is, or is built on, a password many people use.'],
      ['1qaz2wsx3edc', '?lang=zh-Hans', '它就是或基于许多人使用的密码。'],
      ['abcdefghijkl', '', 'it runs through characters in order or keys side by side (like 1234, abcd or qwerty).'],
      ['trustno1trustno1', '?lang=zh-Hans', '它重复同一个字符或同一组字符（例如 aaaa 或 abcabc）。'],
      // The app is "Partner Portal" (registerPartnerApp); the site is id.example.test.
      ['PartnerPortal2024', '', 'it is built on your name or email address, or on the name of the app or of this site.'],
      ['idexample2025!', '?lang=zh-Hans', '它基于您的姓名或电子邮件地址，或该应用或本网站的名称。'],
    ];
    for (const [password, lang, reason] of refusals) {
      const form = await openSetupPage(browser, base, setup.setupUrl, lang);
      const refused = await browser.submit(form, { password, confirm: password });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(lang ? '此密码太容易被猜到：' : 'This password is too easy to guess: ');
      expect(refused.text).toContain(reason);
      expect(refused.text).not.toContain(password);
    }
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
    // The same name of the app in a password whose rest is not guessable is taken.
    const done = await browser.submit(page, {
      password: 'Partner Portal, kettle and pancake',
      confirm: 'Partner Portal, kettle and pancake',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your password is set.');
  });

  it('signs in with a password set before common passwords were refused: only a new password is judged', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    expect(
      (await browser.submit(await openSetupPage(browser, base, setup.setupUrl), { password: PASSWORD, confirm: PASSWORD })).status,
    ).toBe(200);
    // A password the policy refuses today, stored as a setup page before this rule stored it.
    await identity.dataSource.query('UPDATE user_password SET password_hash = $2 WHERE uid = $1', [
      user.uid,
      await hashPassword('qwerty123456'),
    ]);
    const signIn = await identity.app.get(PasswordsService).authenticate(user.email, 'qwerty123456', app.clientId, '203.0.113.9');
    expect(signIn).toMatchObject({ kind: 'ok', uid: user.uid });
  });

  it('sets no password and keeps the link when the page it leads back to cannot be read', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl);
    const other = await newMirror(app);
    const { body: otherSetup } = await request(identity.server)
      .post(`/v1/users/${other.id}/password-setup`)
      .set(bearer(app.appKey))
      .expect(201);
    const chineseBrowser = new FormBrowser();
    const chinesePage = await openSetupPage(chineseBrowser, base, otherSetup.setupUrl, '?lang=zh-Hans');
    await identity.dataSource.query('ALTER TABLE registered_app RENAME COLUMN redirect_uris TO redirect_uris_away');
    try {
      const failed = await browser.submit(page, { password: PASSWORD, confirm: PASSWORD });
      // A page for the person, as the sign-in pages answer their failures, never an error body.
      expect(failed.status).toBe(500);
      expect(failed.headers.get('content-type')).toMatch(/^text\/html/);
      expect(failed.text).toContain('Your password could not be set. Open the link again, or ask for a new one.');
      const inChinese = await chineseBrowser.submit(chinesePage, { password: PASSWORD, confirm: PASSWORD });
      expect(inChinese.status).toBe(500);
      expect(inChinese.text).toContain('无法设置您的密码。请重新打开链接，或申请新的链接。');
    } finally {
      await identity.dataSource.query('ALTER TABLE registered_app RENAME COLUMN redirect_uris_away TO redirect_uris');
    }
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
    const done = await browser.submit(page, { password: PASSWORD, confirm: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your password is set.');
  });

  it('judges a password as it is hashed (NFKC): different letters that fold into one, or a fullwidth email, are refused', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl);
    // Twelve different characters, each of which NFKC turns into "a".
    const allA = 'aａ𝐚𝑎𝒂𝒶𝓪𝔞𝕒𝖆𝖺𝗮';
    expect(new Set(allA.normalize('NFKC')).size).toBe(1);
    const folded = await browser.submit(page, { password: allA, confirm: allA });
    expect(folded.status).toBe(422);
    expect(folded.text).toContain('The password must use at least 5 different characters.');
    const fullwidth = `my ${fullwidthOf(user.email)} pw`;
    const withEmail = await browser.submit(page, { password: fullwidth, confirm: fullwidth });
    expect(withEmail.status).toBe(422);
    expect(withEmail.text).toContain('The password must not contain your email address.');
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
  });

  it('cuts no password short: the form has no length cap, and a long password is set whole or refused as too long', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setup.setupUrl);
    // A browser cuts what is typed or pasted into a field at its maxlength, counted in UTF-16 units, and says nothing
    // (ASVS 2.1.3): a password of 70 characters that are two units each was set cut to 64 and refused at sign-in.
    const inputs = [...page.text.matchAll(/<input [^>]*type="password"[^>]*>/g)].map((match) => match[0]);
    expect(inputs).toHaveLength(2);
    for (const input of inputs) expect(input).not.toMatch(/maxlength/i);
    const tooLong = 'x'.repeat(120) + 'abcdefghi';
    const refused = await browser.submit(page, { password: tooLong, confirm: tooLong });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The password must have at most 128 characters.');
    const astral = Array.from({ length: 70 }, (_, i) => String.fromCodePoint(0x1f600 + (i % 40))).join('');
    expect(astral.length).toBe(140);
    expect((await browser.submit(page, { password: astral, confirm: astral })).status).toBe(200);
    const [stored] = await identity.dataSource.query('SELECT password_hash FROM user_password WHERE uid = $1', [user.uid]);
    expect(await verifyPassword(astral, stored.password_hash)).toBe(true);
  });

  it('refuses a form without the CSRF cookie’s token', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const page = await openSetupPage(new FormBrowser(), base, setup.setupUrl);
    const forged = await new FormBrowser().submit(page, { password: PASSWORD, confirm: PASSWORD });
    expect(forged.status).toBe(403);
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
  });

  it('refuses a CSRF value of the cookie’s length in characters but not in bytes with the form again, not a 500', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const form = new URLSearchParams({ csrf: '\u00e9'.repeat(43), password: PASSWORD, confirm: PASSWORD }).toString();
    const refused = await request(identity.server)
      .post(localPath(setup.setupUrl))
      .set('Cookie', `stdreg_csrf=${'a'.repeat(43)}`)
      .type('form')
      .send(form);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('<label for="password">New password</label>');
    expect(await identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [user.uid])).toHaveLength(0);
  });

  it('expires links, and a newer link replaces an older unused one', async () => {
    const user = await newMirror(app);
    const first = (await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201)).body;
    const second = (await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201)).body;
    expect((await openSetupPage(new FormBrowser(), base, first.setupUrl)).status).toBe(410);
    expect((await openSetupPage(new FormBrowser(), base, second.setupUrl)).status).toBe(200);
    await identity.dataSource.query(`UPDATE password_setup SET expires_at = now() - interval '1 second' WHERE uid = $1`, [user.uid]);
    expect((await openSetupPage(new FormBrowser(), base, second.setupUrl)).status).toBe(410);
    expect((await openSetupPage(new FormBrowser(), base, 'http://id.example.test/v1/password-setup/not-a-token')).status).toBe(410);
  });

  it('purges the links that ended (spent, voided or expired) over a day ago, and keeps the others', async () => {
    const issue = async () => {
      const user = await newMirror(app);
      const { body } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
      return { uid: user.uid, setupUrl: body.setupUrl as string };
    };
    const [usable, spentLongAgo, expiredLongAgo, endedLately, issuedLongAgo] = [
      await issue(),
      await issue(),
      await issue(),
      await issue(),
      await issue(),
    ];
    const setRow = (uid: string, assignments: string) =>
      identity.dataSource.query(`UPDATE password_setup SET ${assignments} WHERE uid = $1`, [uid]);
    await setRow(spentLongAgo.uid, `used_at = now() - interval '2 days'`);
    await setRow(expiredLongAgo.uid, `expires_at = now() - interval '25 hours'`);
    await setRow(endedLately.uid, `expires_at = now() - interval '23 hours'`);
    await setRow(issuedLongAgo.uid, `created_at = now() - interval '30 days'`);

    expect(await identity.app.get(PasswordLinksRepository).purgeEnded()).toBeGreaterThanOrEqual(2);

    const left: { uid: string }[] = await identity.dataSource.query('SELECT uid FROM password_setup WHERE uid = ANY($1)', [
      [usable, spentLongAgo, expiredLongAgo, endedLately, issuedLongAgo].map((link) => link.uid),
    ]);
    expect(left.map((row) => row.uid).sort()).toEqual([usable.uid, endedLately.uid, issuedLongAgo.uid].sort());
    expect((await openSetupPage(new FormBrowser(), base, usable.setupUrl)).status).toBe(200);
    expect((await openSetupPage(new FormBrowser(), base, issuedLongAgo.setupUrl)).status).toBe(200);
    expect((await openSetupPage(new FormBrowser(), base, spentLongAgo.setupUrl)).status).toBe(410);
  });

  it('spends a link once when two forms are sent at the same time: one password is set, the other is refused', async () => {
    const user = await newMirror(app);
    const { body: setup } = await request(identity.server).post(`/v1/users/${user.id}/password-setup`).set(bearer(app.appKey)).expect(201);
    const token = new URL(setup.setupUrl).pathname.split('/').pop()!;
    const passwords = identity.app.get(PasswordsService);
    const outcomes = await Promise.all([
      passwords.completeSetup(token, 'the first of two passphrases', 'the first of two passphrases'),
      passwords.completeSetup(token, 'the second of two passphrases', 'the second of two passphrases'),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['done', 'invalid_link']);
    const audit = await identity.dataSource.query(`SELECT 1 FROM audit_entry WHERE action = 'users.password-set' AND target = $1`, [
      user.uid,
    ]);
    expect(audit).toHaveLength(1);
  });

  it('binds a link to its user: a new link for one user, or another user’s link spent, leaves this one working', async () => {
    const first = await newMirror(app);
    const second = await newMirror(app);
    const firstSetup = (await request(identity.server).post(`/v1/users/${first.id}/password-setup`).set(bearer(app.appKey)).expect(201))
      .body;
    const secondSetup = (await request(identity.server).post(`/v1/users/${second.id}/password-setup`).set(bearer(app.appKey)).expect(201))
      .body;
    const browser = new FormBrowser();
    const done = await browser.submit(await openSetupPage(browser, base, secondSetup.setupUrl), { password: PASSWORD, confirm: PASSWORD });
    expect(done.status).toBe(200);
    const stored = await identity.dataSource.query('SELECT uid, login_email FROM user_password WHERE uid IN ($1, $2)', [
      first.uid,
      second.uid,
    ]);
    expect(stored).toEqual([{ uid: second.uid, login_email: second.email }]);
    const other = new FormBrowser();
    const page = await openSetupPage(other, base, firstSetup.setupUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(first.email);
    expect((await other.submit(page, { password: PASSWORD, confirm: PASSWORD })).status).toBe(200);
  });

  it('refuses a link whose email another person of the organization took for signing in since it was issued', async () => {
    const email = `twice-${randomBytes(4).toString('hex')}@example.com`;
    const { body: records } = await request(identity.server)
      .post('/v1/sync')
      .set(bearer(app.appKey))
      .send({
        registryId: app.registryId,
        records: [
          { externalId: `one-${email}`, email, emailVerified: false, displayName: 'One', locale: 'en' },
          { externalId: `two-${email}`, email, emailVerified: false, displayName: 'Two', locale: 'en' },
        ],
      })
      .expect(200);
    expect(records.results[0].uid).not.toBe(records.results[1].uid);
    const { body: listed } = await request(identity.server)
      .get(`/v1/users?registryId=${app.registryId}&email=${encodeURIComponent(email)}`)
      .set(bearer(app.appKey))
      .expect(200);
    const links: string[] = [];
    for (const item of listed.items as { id: string }[]) {
      links.push(
        (await request(identity.server).post(`/v1/users/${item.id}/password-setup`).set(bearer(app.appKey)).expect(201)).body.setupUrl,
      );
    }
    const browser = new FormBrowser();
    expect((await browser.submit(await openSetupPage(browser, base, links[0]!), { password: PASSWORD, confirm: PASSWORD })).status).toBe(
      200,
    );
    const late = new FormBrowser();
    const refused = await late.submit(await openSetupPage(late, base, links[1]!), { password: PASSWORD, confirm: PASSWORD });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('This link is not valid');
    const passwords = await identity.dataSource.query('SELECT uid FROM user_password WHERE lower(login_email) = lower($1)', [email]);
    expect(passwords).toHaveLength(1);
  });

  it('lets an app key issue links only for users of its own registries alone; a platform key for anyone', async () => {
    const colleague = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'another key of the organization', class: 'app', organizationId: app.organizationId })
      .expect(201);
    const other = await registerPartnerApp(identity, ['https://other.example/callback'], {
      secret: colleague.body.secret,
      organizationId: app.organizationId,
    });
    const shared = await newMirror(app);
    await newMirror(other, shared.email); // the same verified email in the same organization: the same unified user
    expect((await request(identity.server).get(`/v1/users/${shared.id}`).set(bearer(app.appKey)).expect(200)).body.uid).toBe(shared.uid);
    await request(identity.server).post(`/v1/users/${shared.id}/password-setup`).set(bearer(app.appKey)).expect(403);
    await request(identity.server).post(`/v1/users/${shared.id}/password-setup`).set(bearer(other.appKey)).expect(404);
    await request(identity.server).post(`/v1/users/${shared.id}/password-setup`).set(bearer(identity.platformKey)).expect(201);
    await request(identity.server).post('/v1/users/not-a-uuid/password-setup').set(bearer(app.appKey)).expect(400);
    await request(identity.server)
      .post('/v1/users/01900000-0000-7000-8000-000000000000/password-setup')
      .set(bearer(app.appKey))
      .expect(404);
    await request(identity.server).post(`/v1/users/${shared.id}/password-setup`).expect(401);
  });
});

describe('a password link dies with the key or the app that issued it', () => {
  let base: string;
  beforeAll(async () => {
    if (!identity.server.listening) await new Promise<void>((resolve) => identity.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(identity.server.address() as { port: number }).port}`;
  });

  /** A fresh organization's app, with the id of the key that registered it. */
  async function appOfNewKey(): Promise<PartnerApp & { keyId: string }> {
    const key = await identity.newAppKey();
    return { ...(await registerPartnerApp(identity, ['https://portal.example/callback'], key)), keyId: key.key.id };
  }

  /** Another app key of the app's organization, bound to the app's registry. */
  async function colleagueKey(partner: PartnerApp): Promise<{ id: string; secret: string }> {
    const { body } = await request(identity.server)
      .post('/v1/keys')
      .set(bearer(identity.platformKey))
      .send({ name: 'colleague', class: 'app', organizationId: partner.organizationId, allowedRegistryIds: [partner.registryId] })
      .expect(201);
    return { id: body.key.id, secret: body.secret };
  }

  async function issue(mirrorId: string, key: string): Promise<string> {
    return (await request(identity.server).post(`/v1/users/${mirrorId}/password-setup`).set(bearer(key)).expect(201)).body.setupUrl;
  }

  /** What a link nobody issued answers: the page every unusable link answers. */
  async function unknownLinkPage() {
    return openSetupPage(new FormBrowser(), base, `http://id.example.test/v1/password-setup/${randomBytes(32).toString('base64url')}`);
  }

  async function setsPassword(setupUrl: string): Promise<boolean> {
    const browser = new FormBrowser();
    const page = await openSetupPage(browser, base, setupUrl);
    if (page.status !== 200) return false;
    return (await browser.submit(page, { password: PASSWORD, confirm: PASSWORD })).status === 200;
  }

  const passwordOf = async (uid: string) => identity.dataSource.query('SELECT 1 FROM user_password WHERE uid = $1', [uid]);

  it('voids the unspent links of a revoked key, as an unknown link answers, and leaves another key’s links and a rotated key’s working', async () => {
    const partner = await appOfNewKey();
    const colleague = await colleagueKey(partner);
    const [ofKey, opened, ofColleague] = [await newMirror(partner), await newMirror(partner), await newMirror(partner)];
    const link = await issue(ofKey.id, partner.appKey);
    const openedLink = await issue(opened.id, partner.appKey);
    const colleagueLink = await issue(ofColleague.id, colleague.secret);
    const browser = new FormBrowser();
    const openedPage = await openSetupPage(browser, base, openedLink);
    expect(openedPage.status).toBe(200);
    await request(identity.server).post(`/v1/keys/${colleague.id}/rotate`).set(bearer(identity.platformKey)).send({}).expect(200);

    await request(identity.server).post(`/v1/keys/${partner.keyId}/revoke`).set(bearer(identity.platformKey)).expect(200);

    const unknown = await unknownLinkPage();
    expect(unknown.status).toBe(410);
    const voided = await openSetupPage(new FormBrowser(), base, link);
    expect({ status: voided.status, text: voided.text }).toEqual({ status: unknown.status, text: unknown.text });
    // A form opened before the revocation is refused when sent after it.
    const sent = await browser.submit(openedPage, { password: PASSWORD, confirm: PASSWORD });
    expect({ status: sent.status, text: sent.text }).toEqual({ status: unknown.status, text: unknown.text });
    const token = new URL(link).pathname.split('/').pop()!;
    expect(await identity.app.get(PasswordsService).completeSetup(token, PASSWORD, PASSWORD)).toEqual({ kind: 'invalid_link' });
    expect(await passwordOf(ofKey.uid)).toHaveLength(0);
    expect(await passwordOf(opened.uid)).toHaveLength(0);
    const [audit] = await identity.dataSource.query(`SELECT detail FROM audit_entry WHERE action = 'keys.revoke' AND target = $1`, [
      partner.keyId,
    ]);
    expect(audit.detail).toEqual({ passwordLinksVoided: 2 });

    expect(await setsPassword(colleagueLink)).toBe(true);
    expect(await passwordOf(ofColleague.uid)).toHaveLength(1);
  });

  it('voids the unspent links for the users of a deleted app, whichever of its keys issued them, and no other organization’s', async () => {
    const partner = await appOfNewKey();
    const colleague = await colleagueKey(partner);
    const stranger = await appOfNewKey();
    const [ofKey, ofColleague, ofStranger] = [await newMirror(partner), await newMirror(partner), await newMirror(stranger)];
    const links = [await issue(ofKey.id, partner.appKey), await issue(ofColleague.id, colleague.secret)];
    const strangerLink = await issue(ofStranger.id, stranger.appKey);

    await request(identity.server).delete(`/v1/apps/${partner.registryId}`).set(bearer(partner.appKey)).expect(204);

    const unknown = await unknownLinkPage();
    for (const link of links) {
      const voided = await openSetupPage(new FormBrowser(), base, link);
      expect({ status: voided.status, text: voided.text }).toEqual({ status: unknown.status, text: unknown.text });
    }
    expect(await passwordOf(ofKey.uid)).toHaveLength(0);
    expect(await passwordOf(ofColleague.uid)).toHaveLength(0);
    const [audit] = await identity.dataSource.query(`SELECT detail FROM audit_entry WHERE action = 'apps.delete' AND target = $1`, [
      partner.registryId,
    ]);
    expect(audit.detail).toEqual({ passwordLinksVoided: 2 });

    expect(await setsPassword(strangerLink)).toBe(true);
    expect(await passwordOf(ofStranger.uid)).toHaveLength(1);
  });

  it('issues no link for a key revoked while the request was under way', async () => {
    const partner = await appOfNewKey();
    const user = await newMirror(partner);
    const { body: key } = await request(identity.server).get(`/v1/keys/${partner.keyId}`).set(bearer(identity.platformKey)).expect(200);
    await request(identity.server).post(`/v1/keys/${partner.keyId}/revoke`).set(bearer(identity.platformKey)).expect(200);
    // The caller as the key guard resolved it just before the revocation.
    const caller = {
      keyId: partner.keyId,
      keyPrefix: key.prefix,
      keyClass: KeyClass.App,
      organizationId: partner.organizationId,
      registryIds: [partner.registryId],
      maxApps: 3,
      agentSupervisorUid: null,
    };
    await expect(identity.app.get(PasswordsService).issueSetup(user.id, caller)).rejects.toMatchObject({ domainCode: 'apps.key_revoked' });
    expect(await identity.dataSource.query('SELECT 1 FROM password_setup WHERE uid = $1', [user.uid])).toHaveLength(0);
  });
});
