import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** One request and its answer, as the client saw them. */
export interface Exchange {
  method: string;
  url: string;
  requestType: string | undefined;
  requestBody: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** A server in front of `handler` that keeps every exchange, so a test can check the answers afterwards. */
export function recordingServer(handler: (request: IncomingMessage, response: ServerResponse) => void): {
  server: Server;
  exchanges: Exchange[];
} {
  const exchanges: Exchange[] = [];
  const server = createServer((request, response) => {
    const sent: Buffer[] = [];
    const received: Buffer[] = [];
    request.on('data', (chunk: Buffer) => received.push(chunk));
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') sent.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) sent.push(Buffer.from(chunk));
    };
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== 'function') keep(chunk, rest[0]);
      exchanges.push({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        requestType: request.headers['content-type'],
        requestBody: Buffer.concat(received).toString('utf8'),
        status: response.statusCode,
        headers: response.getHeaders(),
        body: Buffer.concat(sent).toString('utf8'),
      });
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    handler(request, response);
  });
  return { server, exchanges };
}

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema?: unknown }> }
  >;
}
interface Document {
  openapi?: string;
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}

/** Headers whose presence tells a client something it must be able to read from the document. */
const TELLING_HEADERS = [
  'etag',
  'location',
  'retry-after',
  'content-language',
  'idempotent-replayed',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const mediaType = (value: unknown) => (typeof value === 'string' ? value.split(';')[0]!.trim().toLowerCase() : undefined);

/**
 * Checks real exchanges against an OpenAPI 3.1 document: each answer's status is documented for its operation, its
 * body matches the documented schema of its media type, the telling headers it carries are documented; a request
 * body the service accepted is one the document accepts, and one it refused as invalid is one the document refuses.
 * Exchanges on paths the document does not describe are not judged. `beyondSchema` names, per operation
 * (`POST /v1/apps`), the body fields checked by rules no JSON Schema says (an address that must be public): their
 * refusals are not counted.
 */
export function openApiConformance(document: Document, options: { beyondSchema?: Record<string, string[]> } = {}) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
  // RFC 6531: a local part may hold any Unicode (ajv-formats knows only the ASCII `email`).
  ajv.addFormat('idn-email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/u);
  // An answer's fields must all be documented: every object schema that lists its properties is read as closed here
  // (the document leaves responses open, so that clients take a field added later).
  ajv.addSchema({ ...(closed(document) as object), $id: 'openapi:document' });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (path: string) => {
    let validate = compiled.get(path);
    if (!validate) compiled.set(path, (validate = ajv.compile({ $ref: `openapi:document#/${path}` })));
    return validate;
  };
  const templates = Object.keys(document.paths ?? {})
    .map((template) => ({
      template,
      literal: template.replace(/\{[^}]+\}/g, '').length,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => b.literal - a.literal);
  const errorsOf = (validate: ValidateFunction, value: unknown) =>
    validate(value)
      ? []
      : (validate.errors ?? [])
          .slice(0, 3)
          .map(
            (error) =>
              `${error.instancePath || '/'} ${error.message}${error.params['additionalProperty'] ? ` (${String(error.params['additionalProperty'])})` : ''}`,
          );

  // Query values are text: read as the parameter's type says (`limit=5` is the integer 5).
  const coercing = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
  (addFormats as unknown as (instance: Ajv2020) => void)(coercing);
  coercing.addFormat('idn-email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/u);
  coercing.addSchema({ ...document, $id: 'openapi:document' });
  const parameterValidator = (path: string) => coercing.compile({ $ref: `openapi:document#/${path}` });
  /** A query value answered 2xx is one the document takes; one refused by name (400) is one it refuses. */
  const queryValues = (exchange: Exchange, operation: Operation, template: string, method: string, where: string): string[] => {
    const query = new URLSearchParams(exchange.url.split('?')[1] ?? '');
    const refused =
      exchange.status === 400
        ? ((JSON.parse(exchange.body) as { errors?: { field?: string }[] }).errors ?? []).map((error) => error.field)
        : [];
    const found: string[] = [];
    // Two parameters refused together break a rule of their combination (`version` with `at`), not of a value.
    if (refused.filter((field) => query.has(String(field))).length > 1) return found;
    (operation.parameters ?? []).forEach((parameter, index) => {
      const value = query.get(parameter.name);
      // A cursor is opaque: only the list that made it knows whether it is one of its own.
      if (
        parameter.in !== 'query' ||
        parameter.name === 'cursor' ||
        value === null ||
        (exchange.status >= 300 && !refused.includes(parameter.name))
      )
        return;
      const holder = { value };
      const validate = parameterValidator(pointer('paths', template, method, 'parameters', String(index), 'schema'));
      const valid = validate(holder.value) || validate(Number.isNaN(Number(value)) ? value : Number(value));
      if (exchange.status < 300 && !valid) found.push(`${where}: took ${parameter.name}=${value}, which the document refuses`);
      if (exchange.status === 400 && valid) found.push(`${where}: refused ${parameter.name}=${value}, which the document takes`);
    });
    return found;
  };

  const check = (exchange: Exchange): string[] => {
    const path = exchange.url.split('?')[0]!;
    const method = exchange.method.toLowerCase();
    const template = templates.find((candidate) => candidate.pattern.test(path))?.template;
    const operation = template ? document.paths![template]![method] : undefined;
    if (!template || !operation) return [];
    const where = `${exchange.method} ${template} ${exchange.status}`;
    const found: string[] = [];
    const status = String(exchange.status);
    const key = operation.responses?.[status] ? status : operation.responses?.[`${status[0]}XX`] ? `${status[0]}XX` : 'default';
    const response = operation.responses?.[key];
    if (!response) return [`${where}: status not documented`];
    const type = mediaType(exchange.headers['content-type']);
    if (exchange.body !== '' && method !== 'head' && exchange.status !== 304) {
      const content = response.content ?? {};
      if (!type || !content[type])
        found.push(`${where}: ${type ?? 'no content type'} not documented (${Object.keys(content).join(', ') || 'no content'})`);
      else if (content[type]!.schema !== undefined && type.endsWith('json')) {
        const errors = errorsOf(
          validator(pointer('paths', template, method, 'responses', key, 'content', type, 'schema')),
          JSON.parse(exchange.body),
        );
        if (errors.length) found.push(`${where}: body ${errors.join('; ')} (${exchange.body.slice(0, 300)})`);
      }
    }
    for (const header of TELLING_HEADERS)
      if (exchange.headers[header] !== undefined && !Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === header))
        found.push(`${where}: header ${header} not documented`);
    for (const [name, header] of Object.entries(response.headers ?? {}))
      if (header.required && exchange.headers[name.toLowerCase()] === undefined) found.push(`${where}: required header ${name} missing`);
    if (exchange.status < 300) {
      const query = new URLSearchParams(exchange.url.split('?')[1] ?? '');
      const documented = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      for (const name of new Set(query.keys()))
        if (!documented.includes(name)) found.push(`${where}: took query parameter ${name}, not documented`);
      for (const parameter of operation.parameters ?? [])
        if (parameter.required && parameter.in === 'query' && !query.has(parameter.name))
          found.push(`${where}: answered without required ${parameter.name}`);
    }
    found.push(...queryValues(exchange, operation, template, method, where));
    const requestSchema = operation.requestBody?.content?.['application/json']?.schema;
    if (requestSchema !== undefined && mediaType(exchange.requestType) === 'application/json' && exchange.requestBody !== '') {
      let body: unknown;
      try {
        body = JSON.parse(exchange.requestBody);
      } catch {
        return found;
      }
      const errors = errorsOf(validator(pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema')), body);
      const refusedAsInvalid =
        exchange.status === 400 &&
        refusesBodyFields(exchange.body, body, response.description ?? '', options.beyondSchema?.[`${exchange.method} ${template}`] ?? []);
      if (exchange.status < 300 && errors.length)
        found.push(`${where}: accepted a body the document refuses: ${errors.join('; ')} (${exchange.requestBody.slice(0, 300)})`);
      if (refusedAsInvalid && !errors.length)
        found.push(
          `${where}: refused a body the document accepts (${exchange.requestBody.slice(0, 300)}) → ${exchange.body.slice(0, 300)}`,
        );
    }
    return found;
  };

  return {
    /** What is wrong with each exchange, one line per disagreement. */
    violations: (exchanges: readonly Exchange[]) => [...new Set(exchanges.flatMap(check))],
    /** The operations no exchange reached with a status in `range` (e.g. '2'), to keep the flows honest. */
    unreached: (exchanges: readonly Exchange[], range: string) =>
      Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
        METHODS.filter((method) => item[method])
          .filter((method) => {
            const pattern = templates.find((candidate) => candidate.template === template)!.pattern;
            return !exchanges.some(
              (exchange) =>
                exchange.method.toLowerCase() === method &&
                pattern.test(exchange.url.split('?')[0]!) &&
                String(exchange.status).startsWith(range),
            );
          })
          .map((method) => `${method.toUpperCase()} ${template}`),
      ),
  };
}

function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (typeof node !== 'object' || node === null) return node;
  const result = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
  if (result['properties'] && result['additionalProperties'] === undefined && !result['allOf'] && !result['oneOf'] && !result['anyOf'])
    result['additionalProperties'] = false;
  return result;
}

/**
 * A validation refusal that names a field of the body; one under the input policy (text no field stores, sizes no
 * field takes) counts only when the operation's 400 does not describe that policy.
 */
function refusesBodyFields(answer: string, body: unknown, description: string, beyondSchema: string[]): boolean {
  const problem = JSON.parse(answer) as { code?: string; detail?: string; errors?: { field?: string }[] };
  if (problem.code !== 'validation_failed') return false;
  if (problem.detail?.startsWith('The request holds input no field accepts') && description.includes('input policy')) return false;
  const fields = (problem.errors ?? []).map((error) => String(error.field ?? '').split(/[.[]/)[0]!);
  return typeof body === 'object' && body !== null && fields.some((field) => field in body && !beyondSchema.includes(field));
}

/**
 * What makes a document an OpenAPI 3.1 document a generator can read, beyond what it says about each operation; and
 * every example is one its own schema takes.
 */
export function openApiDocumentProblems(document: Document): string[] {
  const problems: string[] = [];
  if (!/^3\.1\.\d+$/.test(document.openapi ?? '')) problems.push(`openapi is ${document.openapi}, not 3.1.x`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
  const text = JSON.stringify(document);
  for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
    const target = ref!
      .split('/')
      .reduce<unknown>(
        (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    if (target === undefined) problems.push(`$ref #/${ref} points nowhere`);
  }
  for (const [name, schema] of Object.entries((document.components?.['schemas'] ?? {}) as Record<string, object>))
    if (!ajv.validateSchema(schema)) problems.push(`components.schemas.${name}: ${ajv.errorsText(ajv.errors)}`);
  const typed = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(record['type'] ?? []);
    if (
      typeof record['format'] === 'string' &&
      !/^(int32|int64|float|double)$/.test(record['format']) &&
      types.length &&
      !types.includes('string')
    )
      problems.push(`${where}: format ${record['format']} on type ${types.join('|')}`);
    for (const [key, value] of Object.entries(record)) typed(value, `${where}.${key}`);
  };
  typed(document.components, 'components');
  const exampled = (node: unknown, where: string): void => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record['example'] !== undefined && !JSON.stringify(record).includes('$ref')) {
      const { example, ...schema } = record;
      const validate = ajv.compile(schema);
      if (!validate(example)) problems.push(`${where}: example ${JSON.stringify(example)} ${ajv.errorsText(validate.errors)}`);
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'example') exampled(value, `${where}.${key}`);
  };
  exampled(document.components, 'components');
  exampled(document.paths, 'paths');
  typed(document.paths, 'paths');
  const operationIds = new Set<string>();
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    if (!template.startsWith('/')) problems.push(`path ${template} does not start with /`);
    const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const method of METHODS.filter((name) => item[name])) {
      const operation = item[method] as Operation & {
        operationId?: string;
        parameters?: { name: string; in: string; required?: boolean }[];
      };
      if (operation.operationId) {
        if (operationIds.has(operation.operationId)) problems.push(`operationId ${operation.operationId} is not unique`);
        operationIds.add(operation.operationId);
      }
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      for (const parameter of pathParameters)
        if (!inTemplate.includes(parameter.name) || parameter.required !== true)
          problems.push(`${method} ${template}: path parameter ${parameter.name} not in the path or not required`);
      for (const name of inTemplate)
        if (!pathParameters.some((parameter) => parameter.name === name)) problems.push(`${method} ${template}: {${name}} not declared`);
      const responses = Object.entries(operation.responses ?? {});
      if (!responses.length) problems.push(`${method} ${template}: no responses`);
      for (const [status, response] of responses) {
        if (!/^([1-5](\d\d|XX)|default)$/.test(status)) problems.push(`${method} ${template}: response key ${status}`);
        if (typeof (response as { description?: unknown }).description !== 'string')
          problems.push(`${method} ${template} ${status}: no description`);
      }
    }
  }
  return problems;
}
