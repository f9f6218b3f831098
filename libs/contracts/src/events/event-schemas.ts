// The JSON Schemas of the events, for the OpenAPI documents' `webhooks` (OpenAPI 3.1, JSON Schema
// 2020-12) and for receivers that validate what they get. One schema per payload type of
// event-payloads.ts; the tests validate every event they receive against these.
import { EVENT_ACTOR_KINDS, EVENT_PAYLOAD_VERSION, type PartnerEventType } from './event-types';

type Schema = Record<string, unknown>;

const text: Schema = { type: 'string', minLength: 1 };
const uuid: Schema = { type: 'string', format: 'uuid' };
const count: Schema = { type: 'integer', minimum: 0 };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const amount: Schema = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description: 'Decimal string in the currency’s major unit' };

function object(properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

const ruleVersion = object({
  projectId: uuid,
  version: count,
  scenarioId: uuid,
  scenarioRevision: count,
  effectiveFrom: dateTime,
  rulesDigest: text,
});
const settlementRun = object(
  {
    projectId: uuid,
    settlementRunId: uuid,
    periodId: text,
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    distributableAmount: amount,
    ruleVersion: count,
    correctsRunId: uuid,
  },
  ['correctsRunId'],
);
const merge = object({ mergeId: uuid, survivorUid: uuid, mergedUid: uuid });
const role = object({ roleBindingId: uuid, uid: uuid, role: text });

export const EVENT_PAYLOAD_SCHEMAS = {
  'split_project.created': object({ projectId: uuid, name: text, currency: text, templateVersion: text, scenarioId: uuid }),
  'split_project.discarded': object({ projectId: uuid, discardedAt: dateTime }),
  'scenario.revised': object({ projectId: uuid, scenarioId: uuid, revision: count }),
  'scenario.branched': object({ projectId: uuid, scenarioId: uuid, fromScenarioId: uuid, fromRevision: count }),
  'rule_version.activated': ruleVersion,
  'rule_version.created': ruleVersion,
  'settlement_run.posted': settlementRun,
  'settlement_run.corrected': settlementRun,
  'app.registered': object({ registryId: text, name: text, type: text, clientId: text, redirectUris: { type: 'array', items: text } }),
  'app.deleted': object({ registryId: text }),
  'users.synced': object({
    registryId: text,
    applied: { type: 'boolean' },
    records: count,
    created: count,
    updated: count,
    unchanged: count,
    deleted: count,
    rejected: count,
  }),
  'user.merged': merge,
  'user.unmerged': merge,
  'key.revoked': object({ keyId: uuid, keyPrefix: text }),
  'role.granted': role,
  'role.revoked': role,
  'endpoint.disabled': object({
    endpointId: uuid,
    url: text,
    reason: {
      ...text,
      description: '`deliveries kept failing` (every attempt of one delivery failed) or `the endpoint answered 410 Gone`',
    },
    lastDeliveryId: uuid,
  }),
  'webhook.test': object({ endpointId: uuid, message: text }),
} satisfies Record<PartnerEventType, Schema>;

/** The whole request body a partner's endpoint receives for one event type. */
export function partnerEventSchema(type: PartnerEventType): Schema {
  return object({
    id: { ...uuid, description: 'The event’s id (the webhook-id header is the delivery’s, the same on every retry)' },
    type: { const: type },
    timestamp: { ...dateTime, description: 'When the change was committed' },
    organizationId: uuid,
    actor: object(
      {
        kind: { enum: [...EVENT_ACTOR_KINDS] },
        id: { ...text, description: 'A person’s uid, a key’s public prefix, an agent’s id, or the platform' },
        supervisor: { ...uuid, description: 'For an agent: the person accountable for it' },
      },
      ['supervisor'],
    ),
    version: { const: EVENT_PAYLOAD_VERSION },
    data: EVENT_PAYLOAD_SCHEMAS[type],
  });
}

const signatureHeaders = [
  { name: 'webhook-id', description: 'The delivery’s id: the same on every attempt; receivers deduplicate by it' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed' },
  {
    name: 'webhook-signature',
    description: 'Space-separated `v1,<base64 HMAC-SHA256>` signatures (Standard Webhooks); two during a secret rotation’s overlap',
  },
].map((header) => ({ in: 'header', required: true, schema: { type: 'string' }, ...header }));

/**
 * The OpenAPI 3.1 `webhooks` of these event types: what a partner's endpoint registered at identity
 * (`POST /v1/webhook-endpoints`) receives, signed as Standard Webhooks.
 */
export function eventWebhooks(types: readonly PartnerEventType[]): Record<string, unknown> {
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          summary: `${type} (payload version ${EVENT_PAYLOAD_VERSION})`,
          description:
            'Delivered at least once to the endpoints of the organization that subscribe to it, in order per resource; ' +
            'verify the signature with a Standard Webhooks library and the endpoint’s secret.',
          parameters: signatureHeaders,
          requestBody: { required: true, content: { 'application/json': { schema: partnerEventSchema(type) } } },
          responses: {
            '2XX': {
              description:
                'Received: any 2xx within the time limit (15 s unless the operator set WEBHOOK_TIMEOUT_MS, at most 30 s); anything else (redirects too) is retried with backoff',
            },
            '410': {
              description: 'Gone: the endpoint is disabled at once (an `endpoint.disabled` event says so); enabling it again resumes',
            },
            '429': { description: 'Too many: retried no sooner than its `Retry-After` (seconds or an HTTP date, honoured up to an hour)' },
            '503': {
              description: 'Unavailable: retried no sooner than its `Retry-After` (seconds or an HTTP date, honoured up to an hour)',
            },
          },
        },
      },
    ]),
  );
}
