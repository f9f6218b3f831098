// The last chapter: identity's audit log names each step's actor.
import type { AuditEntryDto } from '@stdreg/contracts';
import { call } from './http';
import type { Partner } from './partner-onboarding';
import type { Story } from './story';

/** Marks an actor id the walkthrough cannot know in advance (an anonymous caller's address). */
export const ANY_ACTOR = '*';

export interface ExpectedAuditEntry {
  action: string;
  actorKind: AuditEntryDto['actorKind'];
  actorId: string;
  outcome: AuditEntryDto['outcome'];
}

/** Every audit entry since the walkthrough began (oldest first), read with the platform key. */
export async function auditSince(story: Story, since: string): Promise<AuditEntryDto[]> {
  const entries: AuditEntryDto[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ from: since, limit: '100', ...(cursor ? { cursor } : {}) });
    const page: { body: { items: AuditEntryDto[]; nextCursor: string | null } } = await call<{
      items: AuditEntryDto[];
      nextCursor: string | null;
    }>('GET', `${story.platform.identityUrl}/v1/audit?${query}`, {
      token: story.platform.platformKey,
      expect: 200,
    });
    entries.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** What the audit log must show for the walkthrough's steps, in the order they happened. */
export function expectedAuditTrail(story: Story, partner: Partner, humanUid: string): ExpectedAuditEntry[] {
  const operator = story.platform.platformKey.split('_')[2]!;
  return [
    { action: 'waitlist.request', actorKind: 'anonymous', actorId: ANY_ACTOR, outcome: 'success' },
    { action: 'waitlist.approve', actorKind: 'platform_key', actorId: operator, outcome: 'success' },
    { action: 'apps.register', actorKind: 'app_key', actorId: partner.appKeyPrefix, outcome: 'success' },
    { action: 'sync.apply', actorKind: 'app_key', actorId: partner.appKeyPrefix, outcome: 'success' },
    { action: 'users.password-setup', actorKind: 'app_key', actorId: partner.appKeyPrefix, outcome: 'success' },
    { action: 'roles.grant', actorKind: 'platform_key', actorId: operator, outcome: 'success' },
    { action: 'decision:split-project:activate', actorKind: 'app_key', actorId: partner.appKeyPrefix, outcome: 'denied' },
    { action: 'decision:split-project:activate', actorKind: 'human', actorId: humanUid, outcome: 'success' },
    { action: 'decision:rule-version:create', actorKind: 'human', actorId: humanUid, outcome: 'success' },
    { action: 'decision:settlement-run:post', actorKind: 'human', actorId: humanUid, outcome: 'success' },
  ];
}

/** The expected entries must appear in this order (others may come between); answers what is missing. */
export function missingFromTrail(entries: AuditEntryDto[], expected: ExpectedAuditEntry[]): ExpectedAuditEntry[] {
  const missing: ExpectedAuditEntry[] = [];
  let at = 0;
  for (const wanted of expected) {
    const found = entries.findIndex(
      (entry, index) =>
        index >= at &&
        entry.action === wanted.action &&
        entry.actorKind === wanted.actorKind &&
        entry.outcome === wanted.outcome &&
        (wanted.actorId === ANY_ACTOR || entry.actorId === wanted.actorId),
    );
    if (found === -1) missing.push(wanted);
    else at = found + 1;
  }
  return missing;
}
