// The outcome of one read or draft against standards-api or identity, with the upstream's own words on failure.
import {
  DOMAIN_ERRORS,
  IDEMPOTENT_REPLAYED_HEADER,
  isStandardsApiErrorCode,
  type DomainErrorCode,
  type ProblemDetails,
  type StandardsApiErrorCode,
} from '@stdreg/contracts';
import { outgoingTraceHeaders } from '@stdreg/server-kit';

/**
 * `replayed`: the upstream answered a keyed write with the answer it kept from an earlier one (Idempotent-Replayed), so
 * nothing was written this time. `domainCode`: the upstream's own code for the failure (`authorization.denied`), when its
 * problem body names one the contracts know.
 */
export type UpstreamResult<T> =
  { ok: true; status: number; body: T; replayed?: boolean } | { ok: false; status: number; message: string; domainCode?: DomainErrorCode };

/**
 * standards-api's own code for a failure, when it named one: the code a refusal of the gateway carries
 * for it, in a tool's result (standardsApiRefusal) and a resource read's error alike.
 */
export function standardsApiCodeOf(result: Extract<UpstreamResult<unknown>, { ok: false }>): StandardsApiErrorCode | undefined {
  return result.domainCode !== undefined && isStandardsApiErrorCode(result.domainCode) ? result.domainCode : undefined;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
}

/** One JSON request; transport failures, before or during the answer, become status 503 so callers treat them like an unavailable upstream. */
export async function requestJson<T>(name: string, request: UpstreamRequest): Promise<UpstreamResult<T>> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...outgoingTraceHeaders(),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch {
    return { ok: false, status: 503, message: `${name} is unreachable or did not answer in time; retry later.` };
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    // The time limit or a broken connection cut the answer short: what the upstream did is unknown.
    return { ok: false, status: 503, message: `${name}'s answer was cut short (time limit or connection lost); retry later.` };
  }
  let body: unknown = null;
  try {
    body = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    return { ok: false, status: 502, message: `${name} answered something that is not JSON.` };
  }
  if (response.ok) {
    const replayed = response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
    return { ok: true, status: response.status, body: body as T, ...(replayed ? { replayed } : {}) };
  }
  const domainCode = problemOf(body).domainCode;
  return {
    ok: false,
    status: response.status,
    message: problemMessage(name, response.status, body),
    ...(typeof domainCode === 'string' && Object.hasOwn(DOMAIN_ERRORS, domainCode) ? { domainCode: domainCode as DomainErrorCode } : {}),
  };
}

function problemOf(body: unknown): Partial<ProblemDetails> {
  return (typeof body === 'object' && body !== null ? body : {}) as Partial<ProblemDetails>;
}

function problemMessage(name: string, status: number, body: unknown): string {
  const problem = problemOf(body);
  const fields = (problem.errors ?? []).map((error) => `${error.field}: ${error.message}`);
  const detail = problem.detail ?? problem.title ?? `${name} answered ${status}`;
  return fields.length > 0 ? `${detail} (${fields.join('; ')})` : detail;
}
