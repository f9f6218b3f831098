// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): a burst of sign-in attempts must leave
// the pool's connections to other requests, which an embedded database's single connection cannot show.
import { jest } from '@jest/globals';
import { PasswordHasher } from '../../src/sign-in/passwords/password-hash';
import { createUserWithPassword, FormBrowser, type Page, type SignedUpUser } from '../support/signin-fixture';
import { startSigninScene, type SigninScene } from '../support/signin-scene';
import { until } from '../support/lock-waits';

let scene: SigninScene;

beforeAll(async () => {
  scene = await startSigninScene();
});
afterAll(async () => {
  await scene?.close();
});

describe('password checks under way', () => {
  it('hold none of the pool’s connections while their passwords are hashed', async () => {
    // As many attempts as the pool has connections: one client may send more than that at once (the per-IP limit).
    const poolSize = (scene.identity.dataSource.options.extra as { max: number }).max;
    const users: SignedUpUser[] = [];
    for (let i = 0; i < poolSize; i++) users.push(await createUserWithPassword(scene.identity, scene.app));
    const browser = new FormBrowser();
    const config = await scene.flow.relyingParty(scene.app);
    const login = await browser.follow((await scene.flow.authorizationUrl(config)).url.toString(), scene.callback.redirectUri);

    // Every hash is held until the test lets them go, so all the attempts are under way at once.
    const hasher = scene.identity.app.get(PasswordHasher);
    const verify = hasher.verify.bind(hasher);
    let hashing = 0;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const hold = jest.spyOn(hasher, 'verify').mockImplementation(async (password, stored) => {
      hashing++;
      await held;
      return verify(password, stored);
    });
    let attempts: Promise<Page>[] = [];
    try {
      attempts = users.map((user) => browser.submit(login, { email: user.email, password: 'a wrong guess' }, '/login'));
      await until(async () => hashing === poolSize, 'every password is being hashed');

      // Another request's query is served meanwhile (it waited for a connection while each check held one).
      let served = false;
      const query = scene.identity.dataSource.query('SELECT 1').then(() => (served = true));
      await until(async () => served, 'a query of another request is served while the passwords are hashed');
      await query;
    } finally {
      letGo();
    }
    const answers = await Promise.all(attempts);
    hold.mockRestore();
    expect(answers.map((page) => page.status)).toEqual(users.map(() => 401));
    const [counted] = await scene.identity.dataSource.query(
      `SELECT count(*)::int AS n FROM user_password WHERE uid = ANY($1::uuid[]) AND failed_attempts = 1`,
      [users.map((user) => user.uid)],
    );
    expect(counted.n).toBe(poolSize);
  });

  it('check a password set while its hash was computed against the new one', async () => {
    const user = await createUserWithPassword(scene.identity, scene.app);
    const browser = new FormBrowser();
    const config = await scene.flow.relyingParty(scene.app);
    const login = await browser.follow((await scene.flow.authorizationUrl(config)).url.toString(), scene.callback.redirectUri);
    const hasher = scene.identity.app.get(PasswordHasher);
    const verify = hasher.verify.bind(hasher);
    let hashing = 0;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const hold = jest.spyOn(hasher, 'verify').mockImplementation(async (password, stored) => {
      if (++hashing === 1) await held;
      return verify(password, stored);
    });
    const changed = 'a password set meanwhile';
    let attempt: Promise<Page> | undefined;
    try {
      attempt = browser.submit(login, { email: user.email, password: changed }, '/login');
      await until(async () => hashing === 1, 'the password is being hashed');
      await scene.identity.dataSource.query('UPDATE user_password SET password_hash = $2 WHERE uid = $1', [
        user.uid,
        await hasher.hash(changed),
      ]);
    } finally {
      letGo();
    }
    await attempt;
    hold.mockRestore();
    const [outcomes] = await scene.identity.dataSource.query(
      `SELECT count(*) FILTER (WHERE outcome = 'success')::int AS signed_in, count(*) FILTER (WHERE outcome = 'failure')::int AS failed
         FROM audit_entry WHERE action = 'signin.password' AND target = $1`,
      [user.uid],
    );
    expect(outcomes).toEqual({ signed_in: 1, failed: 0 });
  });
});
