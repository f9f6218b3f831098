// Chapter 1 of the walkthrough: an organization asks on the waitlist, an operator approves it, the
// partner registers its app and pushes its user mirror.
import type {
  AppRegistrationDto,
  IssuedKeyDto,
  RegisteredAppDto,
  SyncResultDto,
  WaitlistApprovalDto,
  WaitlistRequestDto,
} from '@stdreg/contracts';
import { call } from './http';
import type { Story } from './story';

export interface Partner {
  organizationId: string;
  appKey: string;
  appKeyPrefix: string;
  app: RegisteredAppDto;
  clientSecret: string;
  users: { externalId: string; email: string; uid: string }[];
}

export const PARTNER_USERS = 50;

export async function onboardPartner(story: Story, run: string): Promise<Partner> {
  const { identityUrl, platformKey } = story.platform;
  const asked = await call<WaitlistRequestDto>('POST', `${identityUrl}/v1/waitlist`, {
    body: {
      organizationName: `Walkthrough Studio ${run}`,
      contactName: 'Mei Lin',
      contactEmail: `mei.${run}@studio.example`,
      useCase: 'Revenue splits for a co-produced game',
    },
    expect: 201,
  });
  story.step('waitlist request', { actor: 'anonymous', id: asked.body.id });

  const approval = await call<WaitlistApprovalDto>('POST', `${identityUrl}/v1/waitlist/${asked.body.id}/approve`, {
    token: platformKey,
    body: {},
    expect: 200,
  });
  const issued: IssuedKeyDto = approval.body.issued;
  const organizationId = issued.key.organizationId!;
  story.step('waitlist approved, app key issued', { actor: 'platform operator', organizationId, keyPrefix: issued.key.prefix });

  const registered = await call<AppRegistrationDto>('POST', `${identityUrl}/v1/apps`, {
    token: issued.secret,
    body: { name: 'Walkthrough Portal', type: 'Traditional', redirectUris: [story.redirectUri] },
    expect: 201,
  });
  story.step('app registered', {
    actor: `app key ${issued.key.prefix}`,
    registryId: registered.body.app.registryId,
    clientId: registered.body.app.clientId,
  });

  const records = Array.from({ length: PARTNER_USERS }, (_, index) => ({
    externalId: `ext-${run}-${index}`,
    email: `user${index}.${run}@studio.example`,
    emailVerified: true,
    displayName: `User ${index}`,
    locale: index % 2 === 0 ? 'en' : 'zh-Hans',
  }));
  const synced = await call<SyncResultDto>('POST', `${identityUrl}/v1/sync`, {
    token: issued.secret,
    body: { registryId: registered.body.app.registryId, records },
    expect: 200,
  });
  const users = synced.body.results.map((result, index) => ({
    externalId: records[index]!.externalId,
    email: records[index]!.email,
    uid: result.uid!,
  }));
  story.step(`${PARTNER_USERS} users synced`, { actor: `app key ${issued.key.prefix}`, counts: synced.body.counts });

  return {
    organizationId,
    appKey: issued.secret,
    appKeyPrefix: issued.key.prefix,
    app: registered.body.app,
    clientSecret: registered.body.clientSecret,
    users,
  };
}

/** The operator makes one user a project owner in the partner's organization. */
export async function grantApprovingRole(story: Story, partner: Partner, uid: string): Promise<void> {
  await call('POST', `${story.platform.identityUrl}/v1/role-bindings`, {
    token: story.platform.platformKey,
    body: { uid, role: 'project-owner', organizationId: partner.organizationId },
    expect: 201,
  });
  story.step('project-owner role granted', { actor: 'platform operator', uid, organizationId: partner.organizationId });
}
