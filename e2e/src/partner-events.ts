// The partner's webhook endpoint: a small receiver on this machine, verifying every request with the
// `standardwebhooks` package, registered once at identity for the events of both services.
import type { PartnerEventType, WebhookEndpointWithSecretDto } from '@stdreg/contracts';
import { WebhookReceiver } from '@stdreg/server-kit/testing';
import { call } from './http';
import type { Partner } from './partner-onboarding';
import type { Story } from './story';

const PATH = '/stdreg-events';

/** What the rest of the story makes happen, in both services, after the endpoint is registered. */
export const EXPECTED_EVENTS: PartnerEventType[] = [
  'role.granted',
  'split_project.created',
  'scenario.branched',
  'scenario.revised',
  'rule_version.activated',
  'rule_version.created',
  'settlement_run.posted',
];

export async function subscribeToEvents(story: Story, partner: Partner): Promise<WebhookReceiver> {
  const receiver = await new WebhookReceiver().start();
  const created = await call<WebhookEndpointWithSecretDto>('POST', `${story.platform.identityUrl}/v1/webhook-endpoints`, {
    token: partner.appKey,
    body: { url: receiver.url(PATH), eventTypes: [...EXPECTED_EVENTS, 'endpoint.disabled'], description: 'walkthrough receiver' },
    expect: 201,
  });
  receiver.expect(PATH, created.body.secret);
  story.step('webhook endpoint registered', {
    actor: `app key ${partner.appKeyPrefix}`,
    endpointId: created.body.endpoint.id,
    url: created.body.endpoint.url,
  });
  return receiver;
}

/** Waits (a minute at most) until every expected type arrived, then shows what the receiver got. */
export async function eventsReceived(
  story: Story,
  receiver: WebhookReceiver,
  print: (line: string) => void = () => undefined,
): Promise<void> {
  const types = () => new Set(receiver.at(PATH).map((entry) => entry.event.type));
  for (const deadline = Date.now() + 60_000; !EXPECTED_EVENTS.every((type) => types().has(type));) {
    if (Date.now() > deadline) {
      throw new Error(
        `the receiver got ${[...types()].join(', ') || 'nothing'}; missing ${EXPECTED_EVENTS.filter((type) => !types().has(type)).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const received = receiver.at(PATH);
  for (const entry of received) print(`    ${entry.webhookId} ${entry.event.type} ${JSON.stringify(entry.event.data)}`);
  story.step('partner events received, every signature verified', {
    actor: 'partner receiver',
    events: received.length,
    types: [...types()].sort(),
    unverified: receiver.unverified.length,
  });
}
