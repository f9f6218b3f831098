import { MAX_JSON_DEPTH, MAX_JSON_FIELDS, MAX_JSON_ITEMS, MAX_JSON_VALUES, SINGLE_HEADER_FIELDS } from '../http/input-policy';

/** Marks the operations whose POSTs and DELETEs take an `Idempotency-Key` (server-kit's `describeServedAnswers` documents it). */
export const IDEMPOTENT_WRITES_EXTENSION = 'x-idempotent-writes';

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses?: Record<string, Response>;
  [extension: string]: unknown;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const INPUT_POLICY =
  `Every request is also held to the input policy: no text (path, query or body) holds U+0000 or an unpaired surrogate; ` +
  `a JSON body nests at most ${MAX_JSON_DEPTH} deep, an object has at most ${MAX_JSON_FIELDS} fields, an array at most ` +
  `${MAX_JSON_ITEMS} items, the body at most ${MAX_JSON_VALUES} values, and no value is a number beyond the range of a double (\`1e400\`); ` +
  `a request holding one of ${SINGLE_HEADER_FIELDS.map((field) => `\`${field}\``).join(', ')} more than once, or a \`Host\` that is no host with ` +
  `an optional port, is refused before any route.`;
const PROBLEM = 'application/problem+json';
const problem = (description: string, headers?: Record<string, unknown>): Response => ({
  description,
  ...(headers ? { headers } : {}),
  content: { [PROBLEM]: { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } },
});
const header = (description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({
  description,
  required,
  schema,
});
const RETRY_AFTER = header('Seconds to wait before retrying', { type: 'string', pattern: '^[0-9]+$' });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('The capacity (burst) of the bucket that binds this request', { type: 'string', pattern: '^[0-9]+$' }),
  'X-RateLimit-Remaining': header('Requests left in that bucket now', { type: 'string', pattern: '^[0-9]+$' }),
};
const ETAG = header('A strong validator of this representation (send it back as If-None-Match, or If-Match where taken)');

/**
 * What the platform's shared machinery answers on every route, written into a service's document so that it says
 * what the service does: problems are `application/problem+json`; every operation can answer 400 (a malformed
 * parameter or body, named in `errors`), 500 and 503 (the database timed out or was lost: `Retry-After`); one with a
 * body also 413 and 415; one with a path id 404; a 200 whose operation answers 304 or 412 carries its ETag; a
 * localized read (`lang`) its Content-Language; a 429 its Retry-After, and a rate-limited route's answers its bucket; an idempotent POST or DELETE takes `Idempotency-Key`
 * and marks a replayed answer `Idempotent-Replayed`.
 */
export function describeServedAnswers(served: object): void {
  const document = served as Document;
  closeRequestSchemas(document);
  for (const item of Object.values(document.paths ?? {}))
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = (operation.responses ??= {});
      for (const [status, response] of Object.entries(responses)) {
        const json = response.content?.['application/json'];
        if (/^[45]/.test(status) && json) response.content = { [PROBLEM]: json };
      }
      const add = (status: string, response: Response) => (responses[status] ??= response);
      add('400', problem('A malformed parameter, header or body (validation_failed, the fields named in `errors`).'));
      responses['400']!.description = `${responses['400']!.description ?? ''} ${INPUT_POLICY}`.trim();
      if (operation.requestBody) {
        add('413', problem('The body is too large (payload_too_large)'));
        add('415', problem('The body is not application/json (unsupported_media_type)'));
      }
      if ((operation.parameters ?? []).some((parameter) => parameter.in === 'path')) add('404', problem('No such resource'));
      add('500', problem('An unexpected failure (internal_error); nothing is promised about what was written'));
      add(
        '503',
        problem('Unavailable for now: the database timed out (database.timed_out) or was lost; retry (with the same Idempotency-Key)', {
          'Retry-After': RETRY_AFTER,
        }),
      );
      responses['503']!.headers = { 'Retry-After': RETRY_AFTER, ...responses['503']!.headers };
      if (responses['429']) {
        responses['429'].headers = { 'Retry-After': RETRY_AFTER, ...responses['429'].headers };
        // A rate-limited route says its bucket on every answer once the key is known (not on a 401).
        for (const response of Object.values(responses)) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
      }
      const ok = responses['200'];
      if (ok && (responses['304'] || responses['412'])) ok.headers = { ETag: ETAG, ...ok.headers };
      if (responses['304']) responses['304'].headers = { ETag: ETAG, ...responses['304'].headers };
      if ((operation.parameters ?? []).some((parameter) => parameter.name === 'lang'))
        for (const localized of [ok, responses['304']])
          if (localized)
            localized.headers = { 'Content-Language': header('The locale of the `text` view (en or zh-Hans)'), ...localized.headers };
      if (operation[IDEMPOTENT_WRITES_EXTENSION]) {
        delete operation[IDEMPOTENT_WRITES_EXTENSION];
        if (method !== 'post' && method !== 'delete') continue;
        (operation.parameters ??= []).push({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Up to 200 visible ASCII characters. A retry with the same key and body gets the first answer again (marked Idempotent-Replayed) without a second write; another body is 422, a retry while the first runs 409.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' },
        } as { name: string; in: string });
        add('409', problem('A conflict (the idempotent request is still in progress, or its answer was lost)'));
        add('422', problem('A domain rule refused it (an Idempotency-Key reused with another body)'));
        for (const [status, response] of Object.entries(responses))
          if (status.startsWith('2'))
            response.headers = {
              'Idempotent-Replayed': header('`true` on an answer replayed for a repeated Idempotency-Key', {
                type: 'string',
                enum: ['true'],
              }),
              ...response.headers,
            };
      }
    }
}

/** The validation pipe refuses a field no request DTO declares (`forbidNonWhitelisted`): so does the document. */
function closeRequestSchemas(document: Document): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const ref = typeof record['$ref'] === 'string' ? record['$ref'].replace('#/components/schemas/', '') : undefined;
    if (ref && !seen.has(ref) && schemas[ref]) {
      seen.add(ref);
      visit(schemas[ref]);
    }
    if (record['properties'] && record['additionalProperties'] === undefined) record['additionalProperties'] = false;
    Object.values(record).forEach(visit);
  };
  for (const item of Object.values(document.paths ?? {}))
    for (const method of METHODS) if (item[method]?.requestBody) visit(item[method]!.requestBody);
}
