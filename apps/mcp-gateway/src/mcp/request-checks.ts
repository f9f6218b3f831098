// Checks on the HTTP request before it reaches an MCP server: DNS-rebinding protection and the fixed protocol version.
import type { IncomingHttpHeaders } from 'node:http';
import type { McpGatewayConfig } from '../config/mcp-gateway.config';
import { httpStatusOf, type HttpRefusal } from './mcp.errors';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER } from './protocol';

export interface OriginPolicy {
  /** Host names without port. */
  allowedHosts: readonly string[];
  /** Exact origins; empty: any origin whose host name is an allowed host. */
  allowedOrigins: readonly string[];
}

export function originPolicyOf(config: Pick<McpGatewayConfig, 'MCP_ALLOWED_HOSTS' | 'MCP_ALLOWED_ORIGINS'>): OriginPolicy {
  return { allowedHosts: config.MCP_ALLOWED_HOSTS.map((host) => host.toLowerCase()), allowedOrigins: config.MCP_ALLOWED_ORIGINS };
}

export type RequestCheck = { ok: true } | (HttpRefusal & { ok: false; status: number });

function refused(code: 'host_not_allowed' | 'origin_not_allowed' | 'protocol_version_unsupported', message: string): RequestCheck {
  return { ok: false, status: httpStatusOf(code), code, message };
}

function hostnameOf(host: string): string {
  const bracketed = /^(\[[^\]]+\])(:\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

export function checkOrigin(headers: IncomingHttpHeaders, policy: OriginPolicy): RequestCheck {
  const host = headers.host;
  if (!host || !policy.allowedHosts.includes(hostnameOf(host))) {
    return refused('host_not_allowed', `Forbidden: host ${host ?? '(none)'} is not served here.`);
  }
  const origin = headers.origin;
  if (origin === undefined) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return refused('origin_not_allowed', 'Forbidden: the Origin header is not an origin.');
  }
  const allowed =
    policy.allowedOrigins.length > 0
      ? policy.allowedOrigins.includes(parsed.origin)
      : policy.allowedHosts.includes(hostnameOf(parsed.host));
  return allowed ? { ok: true } : refused('origin_not_allowed', `Forbidden: origin ${parsed.origin} is not allowed.`);
}

/** A request that names a protocol version must name the one this gateway speaks. */
export function checkProtocolVersion(headers: IncomingHttpHeaders): RequestCheck {
  const version = headers[PROTOCOL_VERSION_HEADER];
  if (version === undefined || version === PROTOCOL_VERSION) return { ok: true };
  return refused(
    'protocol_version_unsupported',
    `Bad Request: unsupported protocol version ${String(version)}; this server speaks ${PROTOCOL_VERSION} only.`,
  );
}
