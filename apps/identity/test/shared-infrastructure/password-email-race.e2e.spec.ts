// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): one password setup must wait on its link's
// row, held by another connection, while a second one runs, which an embedded database's single connection cannot.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { FormBrowser, PASSWORD, type Page } from '../support/signin-fixture';
import { startSigninScene, type SigninScene } from '../support/signin-scene';
import { until, waitingForLocks } from '../support/lock-waits';

let scene: SigninScene;

beforeAll(async () => {
  scene = await startSigninScene();
});
afterAll(async () => {
  await scene?.close();
});

/** A record of the scene's app with this (unverified, so unlinked) email, and its password-setup page. */
async function recordWithSetupPage(email: string, externalId: string): Promise<{ page: Page; token: string; browser: FormBrowser }> {
  const app = scene.app;
  const created = await request(scene.identity.server)
    .post('/v1/users')
    .set('Authorization', `Bearer ${app.appKey}`)
    .send({ registryId: app.registryId, externalId, email, emailVerified: false, displayName: 'Ana', locale: 'en' })
    .expect(201);
  const setup = await request(scene.identity.server)
    .post(`/v1/users/${created.body.id}/password-setup`)
    .set('Authorization', `Bearer ${app.appKey}`)
    .expect(201);
  const browser = new FormBrowser();
  const page = await browser.get(setup.body.setupUrl as string);
  expect(page.status).toBe(200);
  return { page, browser, token: new URL(setup.body.setupUrl as string).pathname.split('/').at(-1)! };
}

describe('two people of one organization setting passwords for one email at once', () => {
  it('lets one of them sign in with it: the second setup is refused, its link unspent', async () => {
    const email = `shared-${Date.now()}@example.com`;
    const first = await recordWithSetupPage(email, `first-${Date.now()}`);
    const second = await recordWithSetupPage(email, `second-${Date.now()}`);

    // The first setup waits for its link's row, held here, after it found the email free; the second runs meanwhile.
    const holder = scene.identity.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let firstDone: Page;
    let secondDone: Page | undefined;
    try {
      const tokenHash = createHash('sha256').update(first.token, 'utf8').digest();
      expect(await holder.query('SELECT 1 FROM password_setup WHERE token_hash = $1 FOR UPDATE', [tokenHash])).toHaveLength(1);
      const firstSubmitted = first.browser.submit(first.page, { password: PASSWORD, confirm: PASSWORD });
      const waiting = async (n: number) => (await waitingForLocks(scene.identity.dataSource)) >= n;
      await until(() => waiting(1), 'the first setup waits for its link');
      const secondSubmitted = second.browser.submit(second.page, { password: PASSWORD, confirm: PASSWORD }).then((page) => {
        secondDone = page;
        return page;
      });
      await until(async () => secondDone !== undefined || (await waiting(2)), 'the second setup is answered or waits');
      await holder.commitTransaction();
      [firstDone] = await Promise.all([firstSubmitted, secondSubmitted]);
    } finally {
      await holder.release();
    }

    expect(firstDone.status).toBe(200);
    expect(secondDone!.status).toBe(422);
    const passwords = await scene.identity.dataSource.query('SELECT uid FROM user_password WHERE lower(login_email) = lower($1)', [email]);
    expect(passwords).toHaveLength(1);
    const secondHash = createHash('sha256').update(second.token, 'utf8').digest();
    expect(await scene.identity.dataSource.query('SELECT used_at FROM password_setup WHERE token_hash = $1', [secondHash])).toEqual([
      { used_at: null },
    ]);
  });
});
