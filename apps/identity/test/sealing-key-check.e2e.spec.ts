import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { ConfigValidationError } from '@stdreg/server-kit';
import { ClientSecretSealer } from '../src/platform/secrets/client-secret-sealer';
import { OIDC_SECRETS, type OidcSecrets } from '../src/platform/secrets/oidc-secrets';
import { SealedSecretsRepository } from '../src/platform/secrets/sealed-secrets.repository';
import { SealingKeyCheck } from '../src/platform/secrets/sealing-key-check';
import { startIdentity, type RunningIdentity } from './support/identity-app';

// A database restored without the key its secrets were sealed with (OIDC_CLIENT_SECRET_KEY, or the DATA_DIR's
// oidc-secrets.json when it is unset): the start's check must refuse it, naming the variable and what does not open.
// The refusal of a whole start is in e2e's restore drill (restore-drill-postgres.e2e.spec.ts).
let identity: RunningIdentity;

beforeAll(async () => {
  identity = await startIdentity({ WEBHOOK_DISPATCHER: 'off', WEBHOOK_ALLOW_LOOPBACK: 'true' });
});
afterAll(async () => {
  await identity?.close();
});

/** The start's check as a start with `clientSecretKey` would run it on this database. */
function checkWith(clientSecretKey: Buffer): Promise<void> {
  const secrets = identity.app.get<OidcSecrets>(OIDC_SECRETS);
  const sealer = new ClientSecretSealer({ ...secrets, clientSecretKey });
  return new SealingKeyCheck(identity.app.get(SealedSecretsRepository), sealer).onApplicationBootstrap();
}

async function refusal(clientSecretKey: Buffer): Promise<string> {
  const error: unknown = await checkWith(clientSecretKey).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ConfigValidationError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.problems.join('\n');
}

it('starts on a database with no sealed secret yet, whatever the key', async () => {
  await expect(checkWith(randomBytes(32))).resolves.toBeUndefined();
});

it("refuses another key once an app's client secret is sealed, naming the variable, the app and the file to restore", async () => {
  const { key, registryId } = await identity.newRegistry();
  const app = await request(identity.server).get(`/v1/apps/${registryId}`).set('Authorization', `Bearer ${key}`).expect(200);
  await expect(checkWith(identity.app.get<OidcSecrets>(OIDC_SECRETS).clientSecretKey)).resolves.toBeUndefined();

  const problems = await refusal(randomBytes(32));
  expect(problems).toContain('OIDC_CLIENT_SECRET_KEY: does not open the secrets this database holds sealed');
  expect(problems).toContain(`registered_app ${app.body.clientId as string}`);
  expect(problems).toContain('oidc-secrets.json');
});

it("refuses another key for a webhook endpoint's signing secret, and accepts the key it was sealed with", async () => {
  const { key } = await identity.newRegistry();
  const created = await request(identity.server)
    .post('/v1/webhook-endpoints')
    .set('Authorization', `Bearer ${key}`)
    .send({ url: 'http://127.0.0.1:9/hooks', eventTypes: ['app.registered'] })
    .expect(201);

  expect(await refusal(randomBytes(32))).toContain(`webhook_endpoint ${created.body.endpoint.id as string}`);
  await expect(checkWith(identity.app.get<OidcSecrets>(OIDC_SECRETS).clientSecretKey)).resolves.toBeUndefined();
});
