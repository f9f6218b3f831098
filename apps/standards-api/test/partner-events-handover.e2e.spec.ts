import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { MAX_HANDOVER_EVENTS, STANDARDS_EVENT_TYPES } from '@stdreg/contracts';
import { CuttableProxy, WebhookReceiver } from '@stdreg/server-kit/testing';
import type { Caller } from '../src/callers/caller';
import { StandardsApiConfig } from '../src/config/standards-api.config';
import { EventRelay } from '../src/events/event-relay';
import { PartnerEventsService } from '../src/events/events.service';
import { sampleScenario } from './support/sample-scenario';
import { startRealIdentity, type RealIdentity } from './support/real-identity';
import { startStandardsApi, type RunningStandardsApi } from './support/standards-api-app';

// standards-api's events cross to identity, which delivers them: through its outbox, handed over
// only when identity has them, so nothing is lost when identity is away or its answer is.

let identity: RealIdentity;
let proxy: CuttableProxy;
let api: RunningStandardsApi;
let receiver: WebhookReceiver;

async function identityCall(key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${identity.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A partner organization, its app key, and an endpoint on the receiver for every standards-api event. */
async function partnerWithEndpoint(path: string) {
  const organization = await identityCall(identity.platformKey, 'POST', '/v1/organizations', { name: 'Partner' });
  const issued = await identityCall(identity.platformKey, 'POST', '/v1/keys', {
    name: 'partner',
    class: 'app',
    organizationId: organization['id'],
  });
  const key = issued['secret'] as string;
  const created = await identityCall(key, 'POST', '/v1/webhook-endpoints', {
    url: receiver.url(path),
    eventTypes: ['split_project.created', 'scenario.revised', 'scenario.branched'],
  });
  receiver.expect(path, created['secret'] as string);
  return { organizationId: organization['id'] as string, key, keyPrefix: (issued['key'] as { prefix: string }).prefix };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 30_000) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const relay = () => api.app.get(EventRelay);
const waiting = async () =>
  (await api.dataSource.query('SELECT count(*)::int AS n FROM event_outbox WHERE handed_over_at IS NULL AND parked_at IS NULL'))[0]
    .n as number;
/** A new project of the partner's, through standards-api: one split_project.created event. */
const createProject = (partner: { key: string; organizationId: string }, name: string) =>
  request(api.server)
    .post('/api/v2/split-projects')
    .set({ Authorization: `Bearer ${partner.key}`, 'X-Organization-Id': partner.organizationId })
    .send({ name, currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
    .expect(201);

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  identity = await startRealIdentity({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' } });
  proxy = await CuttableProxy.start(identity.url);
  api = await startStandardsApi({
    IDENTITY_URL: proxy.through(identity.url).replace(/\/$/, ''),
    IDENTITY_SERVICE_TOKEN: identity.serviceToken,
    EVENT_HANDOVER_MAX_REFUSALS: '2',
  });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await proxy?.cut();
  await identity?.stop();
  await receiver?.close();
});

describe("standards-api's events reach a partner through identity", () => {
  it('delivers them signed, in the order of the project, and keeps them while identity is away', async () => {
    const partner = await partnerWithEndpoint('/standards');
    const as = { Authorization: `Bearer ${partner.key}`, 'X-Organization-Id': partner.organizationId };
    const startedAt = Date.now();
    const created = await request(api.server)
      .post('/api/v2/split-projects')
      .set(as)
      .send({ name: 'Crossing', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    const scenarioId = created.body.scenario.id as string;
    for (const periodId of ['2026-03', '2026-04', '2026-05']) {
      await request(api.server)
        .patch(`/api/v2/operating-scenarios/${scenarioId}`)
        .set(as)
        .send({ periods: [{ periodId, revenue: '5000.00', costs: '100.00' }] })
        .expect(200);
    }
    await request(api.server)
      .post(`/api/v2/split-projects/${created.body.project.id}/scenarios`)
      .set(as)
      .send({ name: 'Branch', fromScenarioId: scenarioId })
      .expect(201);

    const writtenBy = Date.now();
    await proxy.cut();
    await expect(relay().relayOnce()).rejects.toThrow();
    expect(await waiting()).toBe(5);
    await proxy.restore();
    expect(await relay().drain()).toBe(5);
    expect(await waiting()).toBe(0);

    await until(() => receiver.at('/standards').length >= 5, 'five deliveries');
    const events = receiver.at('/standards').map((entry) => entry.event);
    expect(events.map((event) => event.type)).toEqual([
      'split_project.created',
      'scenario.revised',
      'scenario.revised',
      'scenario.revised',
      'scenario.branched',
    ]);
    expect(events.map((event) => event.data['revision'])).toEqual([undefined, 2, 3, 4, undefined]);
    expect(events.every((event) => event.organizationId === partner.organizationId)).toBe(true);
    // The key that wrote them, by its public prefix.
    expect(events.map((event) => event.actor)).toEqual(Array(5).fill({ kind: 'key', id: partner.keyPrefix }));
    // Each keeps the time of its change, though it was handed over and sent later (identity was away).
    const written: { id: string; occurredAt: string }[] = await api.dataSource.query(
      `SELECT id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt" FROM event_outbox
        WHERE organization_id = $1 ORDER BY seq`,
      [partner.organizationId],
    );
    expect(receiver.at('/standards').map((entry) => JSON.parse(entry.body) as { id: string; timestamp: string })).toEqual(
      written.map(({ id, occurredAt }) => expect.objectContaining({ id, timestamp: occurredAt })),
    );
    for (const { occurredAt } of written) {
      expect(Date.parse(occurredAt)).toBeGreaterThanOrEqual(startedAt);
      expect(Date.parse(occurredAt)).toBeLessThanOrEqual(writtenBy);
    }
    expect(receiver.unverified).toEqual([]);
    const { body: document } = await request(api.server).get('/api/v2/openapi.json').expect(200);
    expect(Object.keys(document.webhooks).sort()).toEqual([...STANDARDS_EVENT_TYPES].sort());
    expect(receiver.notMatching(document)).toEqual([]);
  });

  it('hands a batch over again when the answer was lost, and identity keeps each event once', async () => {
    const partner = await partnerWithEndpoint('/again');
    const as = { Authorization: `Bearer ${partner.key}`, 'X-Organization-Id': partner.organizationId };
    await request(api.server)
      .post('/api/v2/split-projects')
      .set(as)
      .send({ name: 'Twice', currency: 'EUR', templateVersion: '2.0', scenario: { name: 'Baseline', content: sampleScenario() } })
      .expect(201);
    expect(await relay().drain()).toBe(1);
    // As if the answer never came: the event is still waiting in standards-api's outbox, and goes again.
    await api.dataSource.query('UPDATE event_outbox SET handed_over_at = NULL');
    expect(await relay().drain()).toBeGreaterThan(1);
    await until(() => receiver.at('/again').length >= 1, 'the delivery');
    const owner = await identityCall(partner.key, 'GET', '/v1/webhook-endpoints');
    const endpointId = (owner['items'] as { id: string }[])[0]!.id;
    const deliveries = await identityCall(partner.key, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries`);
    expect(deliveries['items']).toHaveLength(1);
    expect(receiver.at('/again')).toHaveLength(1);
  });

  it('refuses a handover without the service credential, and from a partner key', async () => {
    const partner = await partnerWithEndpoint('/forged');
    const forged = {
      events: [
        {
          id: '0196a0c4-0000-7000-8000-000000000001',
          type: 'split_project.created',
          organizationId: partner.organizationId,
          resource: 'split-project:x',
          actor: { kind: 'system', id: 'forger' },
          version: 1,
          data: {},
          occurredAt: new Date().toISOString(),
        },
      ],
    };
    for (const authorization of ['', `Bearer ${partner.key}`, 'Bearer not-a-service-token-at-all-0000000000']) {
      const response = await fetch(`${identity.url}/v1/events/handover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(forged),
      });
      expect(response.status).toBe(401);
    }
    const invalid = await fetch(`${identity.url}/v1/events/handover`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${identity.serviceToken}` },
      body: JSON.stringify({ events: [{ ...forged.events[0], type: 'app.registered' }] }),
    });
    expect(invalid.status).toBe(400);
    // A time a partner's receiver could not read as one instant: a bare day, no zone, a day the calendar lacks.
    for (const occurredAt of ['2026-11-30', '2026-11-30T10:00:00', '2026-02-30T10:00:00Z', '2026-W48-1T10:00:00Z']) {
      const loose = await fetch(`${identity.url}/v1/events/handover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${identity.serviceToken}` },
        body: JSON.stringify({ events: [{ ...forged.events[0], occurredAt }] }),
      });
      expect({ occurredAt, status: loose.status }).toEqual({ occurredAt, status: 400 });
    }
    const endpoints = await identityCall(partner.key, 'GET', '/v1/webhook-endpoints');
    const endpointId = (endpoints['items'] as { id: string }[])[0]!.id;
    expect((await identityCall(partner.key, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries`))['items']).toEqual([]);
  });

  it('keeps the events when identity refuses the handover with an error answer, and hands them over once it takes them', async () => {
    const partner = await partnerWithEndpoint('/refused');
    await createProject(partner, 'Refused first');
    const config = api.app.get(StandardsApiConfig);
    const serviceToken = config.IDENTITY_SERVICE_TOKEN;
    config.IDENTITY_SERVICE_TOKEN = 'not-the-service-token-of-standards-api';
    try {
      // More times than EVENT_HANDOVER_MAX_REFUSALS: a refused credential is the relay's state, not the event's.
      for (let round = 0; round < 3; round++) await expect(relay().relayOnce()).rejects.toThrow(/identity answered 401/);
    } finally {
      config.IDENTITY_SERVICE_TOKEN = serviceToken;
    }
    expect(await waiting()).toBe(1);
    expect(await api.dataSource.query('SELECT handover_refusals AS n FROM event_outbox WHERE handed_over_at IS NULL')).toEqual([{ n: 0 }]);
    expect(await relay().drain()).toBe(1);
    await until(() => receiver.at('/refused').length >= 1, 'the delivery');
    expect(receiver.at('/refused').map((entry) => entry.event.type)).toEqual(['split_project.created']);
  });

  it('leaves waiting an event written while a handover is on its way, and hands it over with the next', async () => {
    const partner = await partnerWithEndpoint('/meanwhile');
    await createProject(partner, 'Before the handover');
    const realFetch = globalThis.fetch;
    // The relay has read its batch and is about to send it when another change commits its event.
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      globalThis.fetch = realFetch;
      await createProject(partner, 'During the handover');
      return realFetch(...args);
    };
    try {
      expect(await relay().relayOnce()).toBe(1);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(await waiting()).toBe(1);
    expect(await relay().drain()).toBe(1);
    await until(() => receiver.at('/meanwhile').length >= 2, 'both deliveries');
    expect(receiver.at('/meanwhile').map((entry) => entry.event.type)).toEqual(['split_project.created', 'split_project.created']);
  });

  it("hands over an agent's event whatever its client id's length (an https URL may be long), and the events after it", async () => {
    const partner = await partnerWithEndpoint('/agent');
    // An agent acting through a token is its client id; a metadata document's URL has no length of its own.
    const agent: Caller = {
      organizationId: partner.organizationId,
      subject: { kind: 'agent', id: `https://agents.example/${'a'.repeat(300)}/client.json`, supervisorId: randomUUID(), scopes: [] },
    };
    const projectId = randomUUID();
    // What an agent's draft records with its project, through the service every change records with.
    await api.dataSource.transaction((manager) =>
      api.app.get(PartnerEventsService).record(manager, agent, {
        type: 'split_project.created',
        resource: `split-project:${projectId}`,
        data: { projectId, name: 'Drafted by an agent', currency: 'EUR', templateVersion: '2.0', scenarioId: randomUUID() },
      }),
    );
    await createProject(partner, 'After the agent');
    expect(await relay().drain()).toBe(2);
    expect(await waiting()).toBe(0);
    await until(() => receiver.at('/agent').length >= 2, 'both deliveries');
    expect(receiver.at('/agent').map((entry) => entry.event.actor)).toEqual([
      { kind: 'agent', id: agent.subject.id, supervisor: agent.subject.supervisorId },
      { kind: 'key', id: partner.keyPrefix },
    ]);
  });

  it('parks an event identity keeps refusing, after EVENT_HANDOVER_MAX_REFUSALS refusals, and hands over the events after it', async () => {
    const partner = await partnerWithEndpoint('/after-poison');
    await createProject(partner, 'Before the refused event');
    // An event identity refuses whatever it is sent with: here one of a type this identity does not know (a release
    // apart, or a row its validation has since been made stricter for).
    const [{ seq: refusedSeq }] = await api.dataSource.query(
      `INSERT INTO event_outbox (id, type, organization_id, resource, actor, version, data, occurred_at)
       VALUES (gen_random_uuid(), 'split_project.archived', $1, 'split-project:refused', '{"kind":"system","id":"test"}', 1, '{}', now())
       RETURNING seq::text AS seq`,
      [partner.organizationId],
    );
    await createProject(partner, 'After the refused event');
    const refused = async () =>
      (
        await api.dataSource.query(
          `SELECT handover_refusals AS refusals, parked_at IS NOT NULL AS parked, handed_over_at IS NOT NULL AS "handedOver",
             refused_because AS because FROM event_outbox WHERE seq = $1`,
          [refusedSeq],
        )
      )[0];

    // The event before it goes on the first round; the refused one is counted, and holds up the one after it.
    await expect(relay().relayOnce()).rejects.toThrow(/identity refused event .* \(400\), refusal 1 of 2/);
    expect(await refused()).toMatchObject({ refusals: 1, parked: false, handedOver: false });
    expect(await waiting()).toBe(2);
    expect(await relay().drain()).toBe(2);
    expect(await refused()).toMatchObject({ refusals: 2, parked: true, handedOver: false, because: expect.stringMatching(/^400 .*type/) });
    expect(await waiting()).toBe(0); // parked: kept, not handed over, no longer in the relay's way
    await until(() => receiver.at('/after-poison').length >= 2, 'both deliveries');
    expect(receiver.at('/after-poison').map((entry) => entry.event.data['name'])).toEqual([
      'Before the refused event',
      'After the refused event',
    ]);
    const metrics = await request(api.server).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/outbox_events_parked_total\{relay="event-handover"\} 1/);
  });

  it('hands over an outbox longer than one batch, in batches identity takes', async () => {
    const organizationId = randomUUID();
    const count = MAX_HANDOVER_EVENTS + 50;
    await api.dataSource.query(
      `INSERT INTO event_outbox (id, type, organization_id, resource, actor, version, data, occurred_at)
       SELECT gen_random_uuid(), 'scenario.revised', $1, 'split-project:' || n, '{"kind":"system","id":"backlog"}', 1, '{}', now()
         FROM generate_series(1, $2::int) n`,
      [organizationId, count],
    );
    expect(await relay().drain()).toBe(count);
    expect(await waiting()).toBe(0);
  });
});
