// Runs only when the test run has a PostgreSQL server and Redis (see jest.config.cjs).
// The password form while the limiter's store is away: a page that says so, and no password checked.
import { CuttableProxy } from '@stdreg/server-kit/testing';
import { FormBrowser, createUserWithPassword } from '../support/signin-fixture';
import { startSigninScene } from '../support/signin-scene';

it('answers the password form with a page saying sign-in is unavailable while Redis is away, and checks no password', async () => {
  const redis = await CuttableProxy.start(process.env['REDIS_URL']!);
  const { identity, app, flow, callback, close } = await startSigninScene({ REDIS_URL: redis.through(process.env['REDIS_URL']!) });
  try {
    const user = await createUserWithPassword(identity, app);
    const browser = new FormBrowser();
    const login = await browser.follow((await flow.authorizationUrl(await flow.relyingParty(app))).url.toString(), callback.redirectUri);
    await redis.cut();
    const answered = await browser.submit(login, { email: user.email, password: 'not the password at all' }, '/login');
    expect(answered.status).toBe(503);
    expect(answered.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answered.headers.get('retry-after')).toBe('1');
    expect(answered.text).toContain('Signing in is not available at the moment');
    await redis.restore();
    const [password] = await identity.dataSource.query('SELECT failed_attempts FROM user_password WHERE uid = $1', [user.uid]);
    expect(password).toEqual({ failed_attempts: 0 });
    expect(
      await identity.dataSource.query(`SELECT id FROM audit_entry WHERE action = 'signin.password' AND target = $1`, [user.uid]),
    ).toEqual([]);
  } finally {
    await close();
    await redis.close();
  }
}, 120_000);
