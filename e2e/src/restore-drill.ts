// The operator's restore drill (README, "Back up and restore"): a day of work before the backup, and the checks that
// everything issued before it works on the restored platform: keys, the signed-in person's access and ID tokens,
// the partner's webhook secret, the settlement and the ledger, the registry's ETags, a kept idempotent answer, and
// new writes on the restored data.
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { IDEMPOTENT_REPLAYED_HEADER, type EquityLedgerPageDto, type IssuedKeyDto, type SettlementRunDto } from '@stdreg/contracts';
import { sampleScenario, setPasswordThroughLink, signInForTokens, type WebhookReceiver } from '@stdreg/server-kit/testing';
import { call } from './http';
import { eventsReceived, subscribeToEvents } from './partner-events';
import { grantApprovingRole, onboardPartner, type Partner } from './partner-onboarding';
import { postSettlement } from './settlement-work';
import { activateAndSchedule, draftProject } from './split-project-work';
import { Story, type PlatformUrls } from './story';

export const PASSWORD = 'restore the whole platform';
const REGISTRY_READS = ['manifest', 'standards', 'terms?q=revenue', 'roles', 'split-templates'];

export interface BeforeBackup {
  partner: Partner;
  receiver: WebhookReceiver;
  accessToken: string;
  idToken: string;
  /** The split project activated, with its settlement posted. */
  projectId: string;
  settlementId: string;
  state: PlatformState;
  idempotent: { key: string; body: unknown };
}

export interface PlatformState {
  keys: unknown;
  settlement: SettlementRunDto;
  ledger: EquityLedgerPageDto;
  registry: Record<string, { etag: string | null; body: unknown }>;
}

/**
 * An organization with its app key, a registered app with a webhook endpoint, a synced person who set a password and
 * signed in through OIDC, a split project activated and a settlement posted, and a draft sent with an Idempotency-Key.
 */
export async function dayOfWork(platform: PlatformUrls, redirectUri: string): Promise<BeforeBackup> {
  const story = new Story(platform, redirectUri);
  const partner = await onboardPartner(story, `drill${Date.now().toString(36)}`);
  const receiver = await subscribeToEvents(story, partner);
  const person = partner.users[0]!;
  const mirror = await call<{ items: { id: string }[] }>(
    'GET',
    `${platform.identityUrl}/v1/users?registryId=${partner.app.registryId}&email=${encodeURIComponent(person.email)}`,
    { token: partner.appKey, expect: 200 },
  );
  const link = await call<{ setupUrl: string }>('POST', `${platform.identityUrl}/v1/users/${mirror.body.items[0]!.id}/password-setup`, {
    token: partner.appKey,
    expect: 201,
  });
  await setPasswordThroughLink(link.body.setupUrl, PASSWORD);
  await grantApprovingRole(story, partner, person.uid);
  const { accessToken, idToken } = await signInForTokens(
    { identityUrl: platform.identityUrl, clientId: partner.app.clientId, clientSecret: partner.clientSecret, redirectUri },
    person.email,
    PASSWORD,
  );
  const project = await draftProject(story, accessToken, partner.organizationId, person.uid);
  await activateAndSchedule(story, accessToken, partner.organizationId, project, person.uid);
  const settlement = await postSettlement(story, accessToken, partner.organizationId, project, person.uid);
  await eventsReceived(story, receiver);
  const idempotencyKey = `drill-${Date.now()}`;
  const drafted = await draftWithIdempotencyKey(platform, partner, idempotencyKey);
  return {
    partner,
    receiver,
    accessToken,
    idToken,
    projectId: project.projectId,
    settlementId: settlement.id,
    state: await readState(platform, partner, accessToken, settlement.id),
    idempotent: { key: idempotencyKey, body: drafted.body },
  };
}

/** A write after the backup, which the restored platform must not have: a new app key. */
export async function writeAfterBackup(platform: PlatformUrls, before: BeforeBackup): Promise<string> {
  const issued = await call<IssuedKeyDto>('POST', `${platform.identityUrl}/v1/keys`, {
    token: platform.platformKey,
    body: { name: 'after the backup', class: 'app', organizationId: before.partner.organizationId },
    expect: 201,
  });
  return issued.body.key.id;
}

/** What the restored platform must show; `afterBackupKeyId` names the write it must not have. */
export async function expectRestored(platform: PlatformUrls, before: BeforeBackup, afterBackupKeyId: string): Promise<void> {
  await call('GET', `${platform.identityUrl}/v1/keys/${afterBackupKeyId}`, { token: platform.platformKey, expect: 404 });
  expect(await readState(platform, before.partner, before.accessToken, before.settlementId)).toEqual(before.state);

  const discovery = await call<{ jwks_uri: string; issuer: string }>(
    'GET',
    `${platform.identityUrl}/oidc/.well-known/openid-configuration`,
    {
      expect: 200,
    },
  );
  const verified = await jwtVerify(before.idToken, createRemoteJWKSet(new URL(discovery.body.jwks_uri)), {
    issuer: discovery.body.issuer,
    audience: before.partner.app.clientId,
  });
  expect(verified.payload.sub).toBe(before.partner.users[0]!.uid);

  const replay = await draftWithIdempotencyKey(platform, before.partner, before.idempotent.key);
  expect(replay.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true');
  expect(replay.body).toEqual(before.idempotent.body);

  // New writes on the restored data, and the partner's webhook secret still signs what they cause.
  const receivedBefore = before.receiver.received.length;
  await call('POST', `${platform.identityUrl}/v1/role-bindings`, {
    token: platform.platformKey,
    body: { uid: before.partner.users[1]!.uid, role: 'project-owner', organizationId: before.partner.organizationId },
    expect: 201,
  });
  await draftWithIdempotencyKey(platform, before.partner, `${before.idempotent.key}-after`);
  const granted = () => before.receiver.received.slice(receivedBefore).some((entry) => entry.event.type === 'role.granted');
  for (const deadline = Date.now() + 30_000; !granted();) {
    if (Date.now() > deadline) throw new Error('no signed role.granted event arrived after the restore');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(before.receiver.unverified).toEqual([]);
}

export async function readState(
  platform: PlatformUrls,
  partner: Partner,
  accessToken: string,
  settlementId: string,
): Promise<PlatformState> {
  const asHuman = { token: accessToken, organizationId: partner.organizationId, expect: 200 };
  const api = `${platform.standardsApiUrl}/api/v2`;
  const registry: PlatformState['registry'] = {};
  for (const read of REGISTRY_READS) {
    const answer = await call('GET', `${api}/${read}`, { token: partner.appKey, expect: 200 });
    registry[read] = { etag: answer.headers.get('etag'), body: answer.body };
  }
  return {
    keys: (await call('GET', `${platform.identityUrl}/v1/keys`, { token: platform.platformKey, expect: 200 })).body,
    settlement: (await call<SettlementRunDto>('GET', `${api}/settlement-runs/${settlementId}`, asHuman)).body,
    ledger: (await call<EquityLedgerPageDto>('GET', `${api}/equity-ledgers/LEI-WALK-STUDIO`, asHuman)).body,
    registry,
  };
}

export function draftWithIdempotencyKey(platform: PlatformUrls, partner: Partner, key: string) {
  return call('POST', `${platform.standardsApiUrl}/api/v2/split-projects`, {
    token: partner.appKey,
    organizationId: partner.organizationId,
    headers: { 'idempotency-key': key },
    body: { name: 'Drafted once', currency: 'EUR', templateVersion: '1.0', scenario: { name: 'Base', content: sampleScenario() } },
    expect: 201,
  });
}
