import { startSigninScene, type SigninScene } from './support/signin-scene';
import { undoMigrationsThrough } from './support/identity-app';

// The migration that gives agent clients registered before expiry their 30 days, unless a grant of theirs is stored.
let scene: SigninScene;
beforeAll(async () => {
  scene = await startSigninScene({ OIDC_REGISTRATION: 'open' });
});
afterAll(() => scene?.close());

async function registeredAgent(): Promise<string> {
  const response = await fetch(`${scene.identity.issuer}/reg`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Desk Agent', redirect_uris: ['http://127.0.0.1/callback'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

const keptOf = async (clientId: string): Promise<string[]> =>
  (
    (await scene.identity.dataSource.query(
      `SELECT model || ': ' || CASE WHEN expires_at IS NULL THEN 'for good'
                                    WHEN expires_at BETWEEN now() + interval '29 days 23 hours' AND now() + interval '30 days' THEN 'thirty days'
                                    ELSE 'otherwise' END AS kept
         FROM oidc_model WHERE (model = 'Client' AND id = $1) OR (model = 'RegistrationAccessToken' AND payload->>'clientId' = $1)
        ORDER BY model`,
      [clientId],
    )) as { kept: string }[]
  ).map((row) => row.kept);

it('gives earlier agent clients with no grant, and their registration access tokens, 30 days from now; one with a grant is kept for good', async () => {
  const unused = await registeredAgent();
  const granted = await registeredAgent();
  await undoMigrationsThrough(scene.identity.dataSource, 'UnusedAgentClientsExpire1763900001300');
  expect([...(await keptOf(unused)), ...(await keptOf(granted))]).toEqual([
    'Client: for good',
    'RegistrationAccessToken: for good',
    'Client: for good',
    'RegistrationAccessToken: for good',
  ]);
  await scene.identity.dataSource.query(
    `INSERT INTO oidc_model (model, id, payload, expires_at) VALUES ('Grant', 'grant-of-an-earlier-sign-in', $1, now() + interval '1 day')`,
    [JSON.stringify({ clientId: granted, accountId: 'someone', kind: 'Grant' })],
  );

  await scene.identity.dataSource.runMigrations();

  expect(await keptOf(unused)).toEqual(['Client: thirty days', 'RegistrationAccessToken: thirty days']);
  expect(await keptOf(granted)).toEqual(['Client: for good', 'RegistrationAccessToken: for good']);
});
