// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): the sign-in attempts must wait side by
// side on the account's row another connection holds, which an embedded database's single connection cannot.
import { createUserWithPassword, FormBrowser, type Page } from '../support/signin-fixture';
import { startSigninScene, type SigninScene } from '../support/signin-scene';
import { until, waitingForLocks } from '../support/lock-waits';

let scene: SigninScene;

beforeAll(async () => {
  scene = await startSigninScene();
});
afterAll(async () => {
  await scene?.close();
});

describe('sign-in attempts sent at once', () => {
  it('answers no more guesses than the lockout allows, however the attempts are ordered', async () => {
    const user = await createUserWithPassword(scene.identity, scene.app);
    const browser = new FormBrowser();
    const config = await scene.flow.relyingParty(scene.app);
    const login = await browser.follow((await scene.flow.authorizationUrl(config)).url.toString(), scene.callback.redirectUri);
    const attempt = (password: string): Promise<Page> => browser.submit(login, { email: user.email, password }, '/login');
    for (let failed = 1; failed <= 2; failed++) expect((await attempt('an earlier wrong guess')).status).toBe(401);

    // Three attempts are left. Five guesses are sent while the account's row is held, so all five are under way at once.
    const holder = scene.identity.dataSource.createQueryRunner();
    const observer = scene.identity.dataSource.createQueryRunner();
    await holder.connect();
    await observer.connect();
    await holder.startTransaction();
    let answers: Page[];
    try {
      await holder.query('SELECT 1 FROM user_password WHERE uid = $1 FOR UPDATE', [user.uid]);
      const guesses = [1, 2, 3, 4, 5].map((guess) => attempt(`wrong guess number ${guess}`));
      await until(async () => (await waitingForLocks(observer)) >= 5, 'the five guesses wait');
      await holder.commitTransaction();
      answers = await Promise.all(guesses);
    } finally {
      await holder.release();
      await observer.release();
    }

    // Three are counted (two answered "wrong", one that locks); the other two are refused whatever they guessed.
    expect(answers.map((page) => page.status).sort()).toEqual([401, 401, 429, 429, 429]);
    const [checked] = await scene.identity.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_entry WHERE action = 'signin.password' AND target = $1 AND outcome = 'failure'`,
      [user.uid],
    );
    expect(checked.n).toBe(5);
    const [account] = await scene.identity.dataSource.query('SELECT locked_until > now() AS locked FROM user_password WHERE uid = $1', [
      user.uid,
    ]);
    expect(account.locked).toBe(true);
  });
});
