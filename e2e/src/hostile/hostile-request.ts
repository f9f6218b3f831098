// One HTTP request as the fuzzer sends it (raw header lines, raw body text), the arbitrary of such
// requests for an OpenAPI operation, and the sending with a time bound.
import { connect } from 'node:net';
import fc from 'fast-check';
import { brokenJsonText, hostileJson, hostileText } from './hostile-values';
import type { Operation, Parameter } from './openapi-operations';
import { mutated, validish, type KnownValues } from './schema-values';

export interface HostileRequest {
  /** What it aims at, e.g. `POST /api/v2/split-projects`, for the report. */
  target: string;
  method: string;
  /** Path and query, percent-encoded (or deliberately not). */
  path: string;
  /** Header lines in order; a name may repeat. */
  headers: [string, string][];
  body?: string;
  /** How the body's text becomes bytes: UTF-8, or `latin1` for a body of raw bytes (one character a byte). */
  bodyEncoding?: 'latin1';
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  /** The Location header of a redirect. */
  location?: string;
  /** Set for the answer to HEAD, which has no body whatever its headers say. */
  bodiless?: true;
  /** Set when there was no answer: the request timed out, or the connection failed. */
  failure?: string;
}

/** Authorization header values to try, by name (`none` sends no header). Valid ones come from the running platform. */
export type Credentials = Record<string, string | undefined>;

/** The percent-encoding of the UTF-8 of a text (a lone surrogate becomes U+FFFD, as in any encoder). */
export function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** What a header line can carry at all (Node refuses to send the rest), at most `max` characters. */
export function headerSafe(text: string, max = 2048): string {
  return text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').slice(0, max);
}

/** Path segments already encoded, some of them not decodable or meant to climb out of the route. */
export const RAW_SEGMENTS = [
  '..',
  '%2e%2e',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2F',
  '%00',
  '%ED%A0%80',
  '%',
  '%zz',
  '%C0%AE%C0%AE',
  '%FF',
  '.',
  ';',
  '*',
];

const asText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

export function parameterValue(parameter: Parameter, known: KnownValues): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: validish(parameter.schema, known, parameter.name).map((value) => percentEncoded(asText(value))) },
    // Cut to what fits a request line: past Node's 16 KiB the server answers 431 and drops the connection
    // while the client is still writing, so the client never reads that answer.
    { weight: 3, arbitrary: hostileText().map((text) => percentEncoded(text.slice(0, 2000))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

const ODD_CONTENT_TYPES: (string | string[] | undefined)[] = [
  'application/json; charset=utf-8',
  undefined,
  '',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16le',
  'application/merge-patch+json',
  'application/xml',
  'application/json, text/plain',
  '*/*',
  'application/json; charset=nonsense',
  ['application/json', 'text/plain'],
  ['text/plain', 'application/json'],
];

export function contentTypeHeaders(): fc.Arbitrary<[string, string][]> {
  return fc
    .oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) })
    .map((value) => (value === undefined ? [] : [value].flat().map((v) => ['content-type', v] as [string, string])));
}

/** Any of the credentials, the `valid` ones (those the service accepts) most often. */
export function credentialHeaders(credentials: Credentials, valid: string[]): fc.Arbitrary<[string, string][]> {
  const names = Object.keys(credentials);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid).map((name) => authorization(credentials[name])) },
    { weight: 3, arbitrary: fc.constantFrom(...names).map((name) => authorization(credentials[name])) },
    // The same header twice: a valid credential beside another.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...names))
        .map(([a, b]) => [...authorization(credentials[a]), ...authorization(credentials[b])]),
    },
    { weight: 1, arbitrary: hostileText().map((text) => [['authorization', headerSafe(text, 20_000)]] as [string, string][]) },
  );
}

const authorization = (value: string | undefined): [string, string][] => (value === undefined ? [] : [['authorization', value]]);

/** Headers any client may add, with hostile values. */
function extraHeaders(): fc.Arbitrary<[string, string][]> {
  const names = [
    'accept-language',
    'accept',
    'if-none-match',
    'if-match',
    'x-request-id',
    'traceparent',
    'x-organization-id',
    'idempotency-key',
    'x-forwarded-for',
    'origin',
  ];
  return fc.array(
    fc.tuple(
      fc.constantFrom(...names),
      hostileText().map((text) => headerSafe(text)),
    ),
    { maxLength: 2, size: 'xsmall' },
  );
}

export function requestBody(operation: Operation, known: KnownValues): fc.Arbitrary<string | undefined> {
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => JSON.stringify(value));
  if (!operation.body) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: json(hostileJson()) },
      { weight: 1, arbitrary: brokenJsonText() },
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: json(validish(operation.body, known)) },
    { weight: 5, arbitrary: json(mutated(operation.body, known)) },
    { weight: 2, arbitrary: json(hostileJson()) },
    { weight: 2, arbitrary: brokenJsonText() },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Requests at one operation of an OpenAPI document: its parameters and body valid-ish or hostile, any credential. */
export function operationRequest(
  operation: Operation,
  known: KnownValues,
  credentials: Credentials,
  valid: string[],
): fc.Arbitrary<HostileRequest> {
  const byPlace = (place: Parameter['in']) => operation.parameters.filter((p) => p.in === place);
  const pathValues = fc.tuple(...byPlace('path').map((p) => parameterValue(p, known)));
  const query = fc.tuple(
    ...byPlace('query').map((p) =>
      fc.option(
        parameterValue(p, known).map((value) => `${p.name}=${value}`),
        { nil: undefined },
      ),
    ),
  );
  const extraQuery = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc
          .tuple(hostileText(), hostileText())
          .map(([name, value]) => `${percentEncoded(name.slice(0, 100))}=${percentEncoded(value.slice(0, 2000))}`),
        { maxLength: 2 },
      ),
    },
  );
  const headerParameters = fc.tuple(
    ...byPlace('header').map((p) =>
      fc.option(
        parameterValue(p, known).map((value) => [p.name.toLowerCase(), headerSafe(decodeURIComponentSafely(value))] as [string, string]),
        { nil: undefined },
      ),
    ),
  );
  return fc
    .record({
      pathValues,
      query,
      extraQuery,
      headerParameters,
      credential: credentialHeaders(credentials, valid),
      contentType: contentTypeHeaders(),
      extra: extraHeaders(),
      body: requestBody(operation, known),
    })
    .map(
      ({
        pathValues: values,
        query: present,
        extraQuery: extraPairs,
        headerParameters: headerLines,
        credential,
        contentType,
        extra,
        body: text,
      }) => {
        let index = 0;
        const path = operation.path.replace(/\{[^}]+\}/g, () => values[index++] ?? '');
        const pairs = [...present.filter((pair): pair is string => pair !== undefined), ...extraPairs];
        return {
          target: `${operation.method} ${operation.path}`,
          method: operation.method,
          path: pairs.length ? `${path}?${pairs.join('&')}` : path,
          headers: [...credential, ...headerLines.filter((line): line is [string, string] => line !== undefined), ...contentType, ...extra],
          ...(text === undefined ? {} : { body: text }),
        };
      },
    );
}

function decodeURIComponentSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Sends the request to `origin` on a connection of its own and reads the answer, or reports why there was
 * none within `timeoutMs`. A plain socket, so that header lines go out exactly as given (twice, when given
 * twice), and an answer that comes while the body is still being written (a 413 to a 6 MB body, after
 * which the server closes the connection) is still read. No `Connection: close`: a server that closes a
 * connection with a request body it did not read resets it, and the reset discards the answer it sent.
 */
export function send(origin: string, hostile: HostileRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const url = new URL(origin);
    const body = hostile.body === undefined ? undefined : Buffer.from(hostile.body, hostile.bodyEncoding ?? 'utf8');
    const head = [
      `${hostile.method} ${hostile.path} HTTP/1.1`,
      `host: ${url.host}`,
      ...hostile.headers.map(([name, value]) => `${name}: ${value}`),
      ...(body ? [`content-length: ${body.length}`] : []),
      '',
      '',
    ].join('\r\n');
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const received: Buffer[] = [];
    let settled = false;
    const settle = (failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parsedAnswer(Buffer.concat(received), hostile.method === 'HEAD');
      resolve(answer ?? { status: 0, contentType: '', body: '', failure: failure ?? 'the connection closed without an answer' });
    };
    const timer = setTimeout(() => settle(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (parsedAnswer(Buffer.concat(received), hostile.method === 'HEAD', true)) settle();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the body is still going out, after it answered: read what came.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') settle(`connection failed: ${error.code ?? error.message}`);
    });
    socket.on('close', () => settle());
    socket.on('end', () => settle());
    socket.write(head, 'latin1');
    if (body) socket.write(body);
  });
}

/**
 * The status, content type and body of an HTTP/1.1 answer (plain or chunked); undefined while incomplete when
 * `complete`. An answer to HEAD has no body, whatever its Content-Length says.
 */
function parsedAnswer(raw: Buffer, bodiless: boolean, complete = false): Answer | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const lines = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!status) return undefined;
  const header = (name: string) =>
    lines
      .slice(1)
      .find((line) => line.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  const location = header('location');
  const answered = {
    status: Number(status[1]),
    contentType: header('content-type') ?? '',
    ...(location === undefined ? {} : { location }),
  };
  if (bodiless) return { ...answered, body: '', bodiless: true };
  let payload = raw.subarray(split + 4);
  const chunked = header('transfer-encoding')?.toLowerCase() === 'chunked';
  if (complete && !(chunked ? payload.includes('0\r\n\r\n') : payload.length >= Number(header('content-length') ?? 0))) return undefined;
  if (chunked) payload = dechunked(payload);
  return { ...answered, body: payload.toString('utf8') };
}

function dechunked(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < payload.length) {
    const lineEnd = payload.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(payload.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(payload.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** A short, printable form of a request for the failure report (a megabyte of text is shown as its start and length). */
export function printable(hostile: HostileRequest): string {
  const shorten = (text: string) =>
    text.length > 2000 ? `${JSON.stringify(text.slice(0, 2000))}… (${text.length} characters)` : JSON.stringify(text);
  const lines = [
    `${hostile.method} ${shorten(hostile.path)}  [${hostile.target}]`,
    ...hostile.headers.map(([name, value]) => `${name}: ${shorten(value)}`),
  ];
  if (hostile.body !== undefined) lines.push(`body${hostile.bodyEncoding ? ` (${hostile.bodyEncoding})` : ''}: ${shorten(hostile.body)}`);
  return lines.join('\n  ');
}

/** Gives the request fast-check's printable form (the counterexample and shrunk request in a failure report). */
export function reportable(hostile: HostileRequest): HostileRequest {
  return Object.defineProperty(hostile, fc.toStringMethod, { value: () => printable(hostile), enumerable: false });
}
