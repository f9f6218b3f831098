// The operator's upgrade, and its rollback, on PostgreSQL: the release before (UPGRADE_FROM, a checkout of it built
// with `nx run-many -t build`) does a day's work on throwaway databases; this checkout's build starts on the same
// databases with the same settings (its migrations apply) and everything issued before works; then this checkout's
// migrations are undone down to the release before's last and that release starts and serves again.
// Run: UPGRADE_FROM=/path/to/old DATABASE_URL=… REDIS_URL=… npm test -- --config tools/upgrade-check/jest.config.cjs
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import type { AuditEntryDto, WebhookEndpointDto, WebhookEndpointWithSecretDto } from '@stdreg/contracts';
import { sampleScenario, signInAsAgent, WebhookReceiver } from '@stdreg/server-kit/testing';
import { IDENTITY_MIGRATIONS } from '../../apps/identity/src/migrations';
import { STANDARDS_API_MIGRATIONS } from '../../apps/standards-api/src/migrations';
import { call } from '../../e2e/src/http';
import { startCallback } from '../../e2e/src/human-sign-in';
import { onboardPartner, type Partner } from '../../e2e/src/partner-onboarding';
import { startPlatform, type Platform } from '../../e2e/src/platform';
import { dayOfWork, draftWithIdempotencyKey, PASSWORD, readState, type BeforeBackup } from '../../e2e/src/restore-drill';
import { Story } from '../../e2e/src/story';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const OLD = process.env['UPGRADE_FROM'];
if (!OLD || !process.env['DATABASE_URL'])
  throw new Error('the upgrade check needs UPGRADE_FROM (a built checkout of the release before) and DATABASE_URL');
const MAX_DRAFTS = 3;

let platform: Platform;
let callback: Awaited<ReturnType<typeof startCallback>>;
let logDir: string;
let before: BeforeBackup;
let other: Partner;
let disabledEndpointId: string;
const drafts: string[] = [];
let agent: { clientId: string; refreshToken: string };
let discardSubscriber: string;
const disabledReceiver = new WebhookReceiver();

beforeAll(async () => {
  logDir = await mkdtemp(path.join(tmpdir(), 'stdreg-upgrade-check-'));
  platform = await startPlatform(
    { SPLIT_PROJECT_MAX_DRAFTS_PER_ORGANIZATION: String(MAX_DRAFTS) },
    { logFile: path.join(logDir, 'services.log'), root: OLD },
  );
  callback = await startCallback();
  await disabledReceiver.start();
}, 180_000);
afterAll(async () => {
  await before?.receiver.close();
  await disabledReceiver.close();
  await callback?.close();
  await platform?.stop();
  if (!logDir) return;
  // The services log errors only: whatever they logged is the operator's to read.
  const log = await readFile(path.join(logDir, 'services.log'), 'utf8').catch(() => '');
  if (log) console.log(log);
  await rm(logDir, { recursive: true, force: true });
});

async function auditOf(token: string, filter: Record<string, string> = {}): Promise<AuditEntryDto[]> {
  const entries: AuditEntryDto[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ ...filter, limit: '100', ...(cursor ? { cursor } : {}) });
    const page: { body: { items: AuditEntryDto[]; nextCursor: string | null } } = await call<{
      items: AuditEntryDto[];
      nextCursor: string | null;
    }>('GET', `${platform.identityUrl}/v1/audit?${query}`, { token, expect: 200 });
    entries.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

function draft(partner: Partner, name: string, expectStatus: number) {
  return call<{ project?: { id: string } }>('POST', `${platform.standardsApiUrl}/api/v2/split-projects`, {
    token: partner.appKey,
    organizationId: partner.organizationId,
    body: { name, currency: 'EUR', templateVersion: '1.0', scenario: { name: 'Base', content: sampleScenario() } },
    expect: expectStatus,
  });
}

/** Undoes this checkout's migrations applied after the release before's last (named by its migration files' timestamps). */
async function undoBackToOld(
  databaseUrl: string,
  service: 'identity' | 'standards-api',
  migrations: (new () => MigrationInterface)[],
): Promise<string[]> {
  const oldTimestamps = new Set((await readdir(path.join(OLD!, 'apps', service, 'src/migrations'))).map((file) => file.split('-')[0]));
  const dataSource = await new DataSource({
    type: 'postgres',
    url: databaseUrl,
    migrations,
    migrationsTableName: 'schema_migrations',
  }).initialize();
  const undone: string[] = [];
  try {
    for (;;) {
      const [last] = (await dataSource.query('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1')) as { name: string }[];
      if (oldTimestamps.has(last!.name.slice(-13))) return undone;
      await dataSource.undoLastMigration();
      undone.push(last!.name);
    }
  } finally {
    await dataSource.destroy();
  }
}

it('the release before does a day of work', async () => {
  before = await dayOfWork(platform, callback.redirectUri);
  const story = new Story(platform, callback.redirectUri);
  other = await onboardPartner(story, `other${Date.now().toString(36)}`);
  const created = await call<WebhookEndpointWithSecretDto>('POST', `${platform.identityUrl}/v1/webhook-endpoints`, {
    token: before.partner.appKey,
    body: {
      url: disabledReceiver.url('/paused'),
      eventTypes: ['role.granted', 'split_project.created'],
      description: 'paused by the partner',
    },
    expect: 201,
  });
  disabledEndpointId = created.body.endpoint.id;
  await call('PATCH', `${platform.identityUrl}/v1/webhook-endpoints/${disabledEndpointId}`, {
    token: before.partner.appKey,
    body: { enabled: false },
    expect: 200,
  });
  const signedIn = await signInAsAgent(
    platform.identityUrl,
    callback.redirectUri,
    { email: before.partner.users[0]!.email, password: PASSWORD },
    platform.mcpUrl,
    'registry:read projects:read offline_access',
  );
  agent = { clientId: signedIn.clientId, refreshToken: signedIn.refreshToken! };
  expect(agent.refreshToken).toBeDefined();
  // The idempotent draft of dayOfWork is one; two more reach the bound.
  for (const name of ['Second draft', 'Third draft']) {
    const answer = await draft(before.partner, name, 201);
    drafts.push(answer.body.project!.id);
  }
  await draft(before.partner, 'One too many', 409);
  // The state the upgrade must keep, read after all of the day's work (the other organization's key included).
  before.state = await readState(platform, before.partner, before.accessToken, before.settlementId);
}, 180_000);

it("this checkout's build starts on the same databases, migrates them, and everything issued before works", async () => {
  const upgradeAt = new Date().toISOString();
  await platform.restartFrom!();

  expect(await readState(platform, before.partner, before.accessToken, before.settlementId)).toEqual(before.state);
  const discovery = await call<{ jwks_uri: string; issuer: string }>(
    'GET',
    `${platform.identityUrl}/oidc/.well-known/openid-configuration`,
    { expect: 200 },
  );
  const verified = await jwtVerify(before.idToken, createRemoteJWKSet(new URL(discovery.body.jwks_uri)), {
    issuer: discovery.body.issuer,
    audience: before.partner.app.clientId,
  });
  expect(verified.payload.sub).toBe(before.partner.users[0]!.uid);
  const replay = await draftWithIdempotencyKey(platform, before.partner, before.idempotent.key);
  expect(replay.body).toEqual(before.idempotent.body);

  // The agent's refresh token, issued before the upgrade, is still exchanged for new tokens.
  const refreshed = await fetch(`${platform.identityUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: agent.clientId,
      refresh_token: agent.refreshToken,
      resource: platform.mcpUrl,
    }),
  });
  expect(refreshed.status).toBe(200);
  agent.refreshToken = ((await refreshed.json()) as { refresh_token?: string }).refresh_token ?? agent.refreshToken;
  // The entries the fill leaves without an organization are those the migration names (and this release writes so).
  const unattributed = (await auditOf(platform.platformKey, { to: upgradeAt })).filter((entry) => entry.organizationId === null);
  expect([...new Set(unattributed.map((entry) => `${entry.actorKind} ${entry.action}`))].sort()).toEqual([
    'agent tokens.issue',
    'anonymous clients.register',
    'anonymous waitlist.request',
    'human signin.consent',
    'human signin.password',
    'human tokens.issue',
    'human users.password-set',
    'platform_key key.use',
    'system keys.create',
  ]);

  // The audit entries written before the upgrade: each organization's key reads its own, none of the other's.
  const [ofA, ofB] = [await auditOf(before.partner.appKey), await auditOf(other.appKey)];
  for (const [entries, own] of [
    [ofA, before.partner.organizationId],
    [ofB, other.organizationId],
  ] as const) {
    expect(entries.filter((entry) => entry.at < upgradeAt).length).toBeGreaterThan(2);
    expect(entries.filter((entry) => entry.organizationId !== own)).toEqual([]);
  }
  expect(ofA.map((entry) => entry.action)).toEqual(expect.arrayContaining(['apps.register', 'webhooks.create', 'webhooks.update']));
  expect(ofB.map((entry) => entry.action)).toEqual(expect.arrayContaining(['apps.register']));

  const paused = await call<WebhookEndpointDto>('GET', `${platform.identityUrl}/v1/webhook-endpoints/${disabledEndpointId}`, {
    token: before.partner.appKey,
    expect: 200,
  });
  expect(paused.body.status).toBe('disabled');
  expect(paused.body.disabledAt).not.toBeNull();
  expect(paused.body.disabledAt! < upgradeAt).toBe(true);

  // The drafts made before count under the bound; a draft can be discarded, freeing its place; the activated cannot.
  await draft(before.partner, 'Still one too many', 409);
  await call('DELETE', `${platform.standardsApiUrl}/api/v2/split-projects/${drafts[0]}`, {
    token: before.partner.appKey,
    organizationId: before.partner.organizationId,
    expect: 200,
  });
  await call('DELETE', `${platform.standardsApiUrl}/api/v2/split-projects/${before.projectId}`, {
    token: before.accessToken,
    organizationId: before.partner.organizationId,
    expect: 409,
  });
  await draft(before.partner, 'In the freed place', 201);
  // An endpoint for this release's event type only, which the release before must still list after the rollback.
  discardSubscriber = (
    await call<WebhookEndpointWithSecretDto>('POST', `${platform.identityUrl}/v1/webhook-endpoints`, {
      token: before.partner.appKey,
      body: { url: disabledReceiver.url('/discards'), eventTypes: ['split_project.discarded', 'role.granted'] },
      expect: 201,
    })
  ).body.endpoint.id;

  // A new event is signed with the secret the partner was given before the upgrade; the paused endpoint gets nothing.
  const receivedBefore = before.receiver.received.length;
  await call('POST', `${platform.identityUrl}/v1/role-bindings`, {
    token: platform.platformKey,
    body: { uid: before.partner.users[1]!.uid, role: 'project-owner', organizationId: before.partner.organizationId },
    expect: 201,
  });
  for (
    const deadline = Date.now() + 30_000;
    !before.receiver.received.slice(receivedBefore).some((entry) => entry.event.type === 'role.granted');
  ) {
    if (Date.now() > deadline) throw new Error('no signed role.granted event arrived after the upgrade');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(before.receiver.unverified).toEqual([]);
  expect(disabledReceiver.received).toEqual([]);
}, 180_000);

it('rolls back: the migrations are undone to the release before, which starts and serves again', async () => {
  const [identityDb, standardsDb] = (await platform.databaseConnections()).map((connection) => connection.connectionString!);
  const undone: Record<string, string[]> = {};
  await platform.restartFrom!(OLD, async () => {
    undone['identity'] = await undoBackToOld(identityDb!, 'identity', IDENTITY_MIGRATIONS);
    undone['standards-api'] = await undoBackToOld(standardsDb!, 'standards-api', STANDARDS_API_MIGRATIONS);
  });
  expect(undone).toEqual({
    identity: ['AuditEntryOrganization1765000000007', 'WebhookEndpointDisabledAt1765000000004'],
    'standards-api': ['SplitProjectDiscarded1765000000010'],
  });

  const state = await readState(platform, before.partner, before.accessToken, before.settlementId);
  expect(state.registry).toEqual(before.state.registry);
  expect(state.settlement).toEqual(before.state.settlement);
  // The discarded draft is a draft again there (the release before knows no discard).
  await call('GET', `${platform.standardsApiUrl}/api/v2/split-projects/${drafts[0]}`, {
    token: before.partner.appKey,
    organizationId: before.partner.organizationId,
    expect: 200,
  });
  const paused = await call<{ status: string }>('GET', `${platform.identityUrl}/v1/webhook-endpoints/${disabledEndpointId}`, {
    token: before.partner.appKey,
    expect: 200,
  });
  expect(paused.body.status).toBe('disabled');
  await call('GET', `${platform.identityUrl}/v1/webhook-endpoints/${discardSubscriber}`, { token: before.partner.appKey, expect: 200 });
  await call('GET', `${platform.identityUrl}/v1/webhook-endpoints`, { token: before.partner.appKey, expect: 200 });
  // Four drafts again (the discarded one among them), over this release's bound of three: no new one, as decided.
  await draft(before.partner, 'Over the bound again', 409);
  await call('GET', `${platform.identityUrl}/v1/audit?limit=5`, { token: platform.platformKey, expect: 200 });
  const refreshed = await fetch(`${platform.identityUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: agent.clientId,
      refresh_token: agent.refreshToken,
      resource: platform.mcpUrl,
    }),
  });
  expect(refreshed.status).toBe(200);
  const receivedBefore = before.receiver.received.length;
  await call('POST', `${platform.identityUrl}/v1/role-bindings`, {
    token: platform.platformKey,
    body: { uid: before.partner.users[2]!.uid, role: 'project-owner', organizationId: before.partner.organizationId },
    expect: 201,
  });
  for (
    const deadline = Date.now() + 30_000;
    !before.receiver.received.slice(receivedBefore).some((entry) => entry.event.type === 'role.granted');
  ) {
    if (Date.now() > deadline) throw new Error('no signed role.granted event arrived after the rollback');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(before.receiver.unverified).toEqual([]);
}, 180_000);
