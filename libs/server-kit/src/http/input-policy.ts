import type { NextFunction, Request, Response } from 'express';
import { ErrorCode, type FieldError } from '@stdreg/contracts';
import { DomainError } from './domain-error';

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * The most fields one JSON object may have. class-transformer removes duplicate keys with `indexOf`, so a
 * DTO's time grew with the square of a body's fields (20 000 unknown fields took 0.4 s of one anonymous search);
 * our widest real object has a few dozen.
 */
export const MAX_JSON_FIELDS = 1000;

/** The most items one JSON array may have: our longest list is sync's 1 000 records, and each item of a list a DTO checks `each` costs about 10 µs. */
export const MAX_JSON_ITEMS = 1000;

/**
 * The most values (arrays, objects, strings, numbers, booleans, nulls) a JSON body may hold: class-transformer
 * copies each nested value at about 6 µs, so nested lists cannot multiply it. A full sync holds about 8 000,
 * the largest scenario about 7 400.
 */
export const MAX_JSON_VALUES = 20_000;

// U+0000 (PostgreSQL stores no NUL in text) and UTF-16 surrogates without their pair (no UTF-8 encodes them).
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be accepted, or null when it can. */
export function unstorableText(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return found[0] === '\u0000'
    ? 'contains U+0000 (NUL), which no text field accepts'
    : 'contains an unpaired UTF-16 surrogate, which is not Unicode text';
}

/**
 * The first thing wrong with a parsed JSON value: nesting deeper than MAX_JSON_DEPTH, an object of more
 * than MAX_JSON_FIELDS fields, an array of more than MAX_JSON_ITEMS items, more than MAX_JSON_VALUES values
 * in all, a key or a string that is not storable text, or a number beyond a double's range (`1e400`, which
 * JSON.parse reads as Infinity: no field takes it, and canonical JSON cannot hold it). Iterative, so no input can exhaust the stack here.
 */
export function jsonInputProblem(value: unknown): FieldError | null {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  let values = 0;
  while (pending.length > 0) {
    const { value: current, path, depth } = pending.pop()!;
    if (++values > MAX_JSON_VALUES)
      return { field: 'body', message: `the body holds more than the ${MAX_JSON_VALUES} values a body may have` };
    if (typeof current === 'string') {
      const problem = unstorableText(current);
      if (problem) return { field: path || 'body', message: `${path || 'the body'} ${problem}` };
      continue;
    }
    if (typeof current === 'number' && !Number.isFinite(current))
      return {
        field: path || 'body',
        message: `${path || 'the body'} is a number too large for any field (JSON.parse made it ${current})`,
      };
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_JSON_DEPTH)
      return { field: path || 'body', message: `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(current)) {
      if (current.length > MAX_JSON_ITEMS)
        return {
          field: path || 'body',
          message: `${path || 'the body'} has ${current.length} items, more than the ${MAX_JSON_ITEMS} an array may have`,
        };
      current.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }));
      continue;
    }
    const fields = Object.entries(current);
    if (fields.length > MAX_JSON_FIELDS)
      return {
        field: path || 'body',
        message: `${path || 'the body'} has ${fields.length} fields, more than the ${MAX_JSON_FIELDS} an object may have`,
      };
    for (const [key, item] of fields) {
      const keyProblem = unstorableText(key);
      const field = path ? `${path}.${key}` : key;
      if (keyProblem) return { field: path || 'body', message: `a field name ${keyProblem}` };
      pending.push({ value: item, path: field, depth: depth + 1 });
    }
  }
  return null;
}

/** The first path segment or query value that does not decode to storable text. */
export function urlInputProblem(originalUrl: string): FieldError | null {
  const queryAt = originalUrl.indexOf('?');
  const path = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
  const query = queryAt === -1 ? '' : originalUrl.slice(queryAt + 1);
  for (const segment of path.split('/')) {
    const problem = decodedProblem(segment);
    if (problem) return { field: 'path', message: `the path ${problem}` };
  }
  for (const pair of query.split('&')) {
    const [name = '', value = ''] = pair.split('=', 2).map((part) => part.replace(/\+/g, ' '));
    const problem = decodedProblem(name) ?? decodedProblem(value);
    if (problem) return { field: decodeSafely(name) ?? 'query', message: `the query ${problem}` };
  }
  return null;
}

function decodedProblem(encoded: string): string | null {
  const decoded = decodeSafely(encoded);
  if (decoded === null) return 'is not valid percent-encoded UTF-8';
  return unstorableText(decoded);
}

function decodeSafely(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/** A request refused by the input policy: a 400 problem details, or what an app's own error middleware makes of it. */
export class RefusedInput extends DomainError {
  constructor(readonly problem: FieldError) {
    super(ErrorCode.ValidationFailed, `The request holds input no field accepts: ${problem.message}.`, [problem]);
  }
}

/** Refuses, before any route runs, a URL whose path or query is not storable text. */
export function urlInputPolicy(request: Request, _response: Response, next: NextFunction): void {
  const problem = urlInputProblem(request.originalUrl);
  next(problem ? new RefusedInput(problem) : undefined);
}

/**
 * Header fields a request may hold once. RFC 9112 (3.2) requires a 400 for a request with more than one Host line;
 * of two Authorization or Content-Type lines Node keeps the first, where a proxy or gateway in front may read the last.
 */
export const SINGLE_HEADER_FIELDS = ['Host', 'Authorization', 'Content-Type'] as const;
const SINGLE_FIELDS = new Set(SINGLE_HEADER_FIELDS.map((field) => field.toLowerCase()));

/** RFC 3986's `host [ ":" port ]`: an IP literal in brackets or a registered name (empty included), then digits. */
const HOST_VALUE = /^(?:\[[0-9A-Za-z:._~%!$&'()*+,;=-]+\]|[0-9A-Za-z._~%!$&'()*+,;=-]*)(?::[0-9]*)?$/;

/** The first header field a request holds twice of those it may hold once, or a Host value that is no `host[:port]`. */
export function headerInputProblem(rawHeaders: readonly string[]): FieldError | null {
  const seen = new Set<string>();
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (!SINGLE_FIELDS.has(name)) continue;
    if (seen.has(name)) return { field: name, message: `the request has more than one ${name} header field` };
    if (name === 'host' && !HOST_VALUE.test(rawHeaders[index + 1] ?? ''))
      return { field: 'host', message: 'the Host header field is not a host with an optional port' };
    seen.add(name);
  }
  return null;
}

/** Refuses, before any route runs, a request whose header fields are ambiguous (headerInputProblem). */
export function headerInputPolicy(request: Request, _response: Response, next: NextFunction): void {
  const problem = headerInputProblem(request.rawHeaders);
  next(problem ? new RefusedInput(problem) : undefined);
}

/** Refuses a parsed body nested too deep or holding text that is not storable. */
export function bodyInputPolicy(request: Request, _response: Response, next: NextFunction): void {
  const problem = request.body === undefined ? null : jsonInputProblem(request.body);
  next(problem ? new RefusedInput(problem) : undefined);
}
