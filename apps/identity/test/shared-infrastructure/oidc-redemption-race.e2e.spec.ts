// Runs only when the test run has a PostgreSQL server (see jest.config.cjs): two token requests must wait side by
// side on a code or refresh token another connection holds, which an embedded database's single connection cannot.
import * as oidc from 'openid-client';
import { createUserWithPassword } from '../support/signin-fixture';
import { startSigninScene, type SigninScene } from '../support/signin-scene';
import { until, waitingForLocks } from '../support/lock-waits';

let scene: SigninScene;

beforeAll(async () => {
  scene = await startSigninScene({ TOKEN_SUBJECT_LEASE_MS: '1500' });
});
afterAll(async () => {
  await scene?.close();
});

type Settled<T> = { ok: true; value: T } | { ok: false; error: string };

async function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: (error as { error?: string }).error ?? String(error) };
  }
}

/** What each redemption answered, in a fixed order: `tokens` or the OAuth error. */
const outcomes = (results: Settled<unknown>[]) => results.map((result) => (result.ok ? 'tokens' : result.error)).sort();

/**
 * Sends two redemptions of the stored code or token `id` while another transaction holds its row, waits until both
 * are queued behind that lock (each has read the row as unused by then), then lets them go.
 */
async function redeemTwiceAtOnce<T>(model: string, id: string, redeem: () => Promise<T>): Promise<Settled<T>[]> {
  const holder = scene.identity.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  try {
    const held = await holder.query('SELECT 1 FROM oidc_model WHERE model = $1 AND id = $2 FOR UPDATE', [model, id]);
    expect(held).toHaveLength(1);
    const redemptions = [settled(redeem()), settled(redeem())];
    await until(async () => (await waitingForLocks(scene.identity.dataSource)) >= 2, 'the two redemptions both wait for the held row');
    await holder.commitTransaction();
    return await Promise.all(redemptions);
  } finally {
    await holder.release();
  }
}

describe('a code or refresh token redeemed by two requests at once', () => {
  it('exchanges an authorization code once: the second request gets invalid_grant and the grant is revoked', async () => {
    const user = await createUserWithPassword(scene.identity, scene.app);
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config);
    const callbackUrl = await scene.flow.signIn(authorization, user.email);
    const code = callbackUrl.searchParams.get('code')!;

    const results = await redeemTwiceAtOnce('AuthorizationCode', code, () => scene.flow.tokens(config, authorization, callbackUrl));

    expect(outcomes(results)).toEqual(['invalid_grant', 'tokens']);
    // As for a code replayed later: what the first exchange issued is revoked with the grant.
    const issued = results.find((result) => result.ok)!.value;
    expect((await scene.flow.decide(issued.access_token, 'split-project:read', scene.app.organizationId)).body).toMatchObject({
      decision: 'deny',
    });
    expect(await settled(oidc.refreshTokenGrant(config, issued.refresh_token!))).toEqual({ ok: false, error: 'invalid_grant' });
  });

  it('rotates a refresh token once: the second request gets invalid_grant and the grant is revoked', async () => {
    const user = await createUserWithPassword(scene.identity, scene.app);
    const config = await scene.flow.relyingParty(scene.app);
    const authorization = await scene.flow.authorizationUrl(config);
    const tokens = await scene.flow.tokens(config, authorization, await scene.flow.signIn(authorization, user.email));

    const results = await redeemTwiceAtOnce('RefreshToken', tokens.refresh_token!, () =>
      oidc.refreshTokenGrant(config, tokens.refresh_token!),
    );

    expect(outcomes(results)).toEqual(['invalid_grant', 'tokens']);
    const rotated = results.find((result) => result.ok)!.value;
    expect(await settled(oidc.refreshTokenGrant(config, rotated.refresh_token!))).toEqual({ ok: false, error: 'invalid_grant' });
  });
});
