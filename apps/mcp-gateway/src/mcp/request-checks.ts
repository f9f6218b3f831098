// Checks on the HTTP request before it reaches an MCP server: DNS-rebinding protection and the fixed protocol version.
import type { IncomingHttpHeaders } from 'node:http';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from './protocol';

export interface OriginPolicy {
  /** Host names without port. */
  allowedHosts: readonly string[];
  /** Exact origins; empty: any origin whose host name is an allowed host. */
  allowedOrigins: readonly string[];
}

export type RequestCheck = { ok: true } | { ok: false; status: 400 | 403; message: string };

function hostnameOf(host: string): string {
  const bracketed = /^(\[[^\]]+\])(:\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

export function checkOrigin(headers: IncomingHttpHeaders, policy: OriginPolicy): RequestCheck {
  const host = headers.host;
  if (!host || !policy.allowedHosts.includes(hostnameOf(host))) {
    return { ok: false, status: 403, message: `Forbidden: host ${host ?? '(none)'} is not served here.` };
  }
  const origin = headers.origin;
  if (origin === undefined) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { ok: false, status: 403, message: 'Forbidden: the Origin header is not an origin.' };
  }
  const allowed =
    policy.allowedOrigins.length > 0
      ? policy.allowedOrigins.includes(parsed.origin)
      : policy.allowedHosts.includes(hostnameOf(parsed.host));
  return allowed ? { ok: true } : { ok: false, status: 403, message: `Forbidden: origin ${parsed.origin} is not allowed.` };
}

/** A request that names a protocol version must name the one this gateway speaks. */
export function checkProtocolVersion(headers: IncomingHttpHeaders): RequestCheck {
  const version = headers[PROTOCOL_VERSION_HEADER];
  if (version === undefined || version === PROTOCOL_VERSION) return { ok: true };
  return {
    ok: false,
    status: 400,
    message: `Bad Request: unsupported protocol version ${String(version)}; this server speaks ${PROTOCOL_VERSION} only.`,
  };
}
