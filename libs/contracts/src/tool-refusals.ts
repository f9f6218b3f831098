// Why the MCP gateway refused, as a code beside the words an agent reads: the gateway's own reasons, or
// standards-api's domain code when standards-api refused what the gateway asked of it. A refused tools/call
// carries it in its result's `_meta`; a refused resources/read, and a request refused over HTTP before any
// MCP server saw it, in the JSON-RPC error's `data`; both under TOOL_REFUSAL_META.
import type { StandardsApiErrorCode } from './standards-api-errors';

export const GATEWAY_REFUSAL_CODES = [
  /** No Authorization: Bearer credential. */
  'credential_required',
  /** X-Organization-Id is not an organization id (uuid). */
  'organization_header_invalid',
  /** The credential has no organization of its own and none was named. */
  'organization_required',
  /** identity could not be asked; nothing was done. */
  'authorization_unavailable',
  /** identity denied the action. */
  'not_allowed',
  /** The arguments do not match the tool's input schema. */
  'invalid_arguments',
  /** The tool's own refusal of what it was given (content that breaks a rule, an unknown id, an upstream read that failed). */
  'tool_refused',
  /** standards-api refused a draft without naming a domain code (unreachable, or not JSON). */
  'upstream_failed',
  /** The tool failed unexpectedly; nothing was changed. */
  'tool_failed',
  /** resources/read: no such resource (an unknown URI, a malformed id, or one its service does not have). */
  'resource_not_found',
  /** HTTP 401: the credential is longer than any the platform issues. */
  'credential_too_long',
  /** HTTP 401: an agent's token identity does not accept for this gateway (expired, revoked, another resource's). */
  'credential_invalid',
  /** HTTP 403: an agent's token without a scope the request needs (WWW-Authenticate names them). */
  'scope_insufficient',
  /** HTTP 403: the Host header names a host this gateway does not serve (DNS-rebinding protection). */
  'host_not_allowed',
  /** HTTP 403: the Origin header is not an origin, or not one allowed. */
  'origin_not_allowed',
  /** HTTP 400: MCP-Protocol-Version names a version this gateway does not speak. */
  'protocol_version_unsupported',
  /** HTTP 429: too many tool calls for this credential or address (Retry-After says when to retry). */
  'rate_limited',
  /** HTTP 503: the tool-call rate limiter could not be asked; nothing was done. */
  'rate_limiter_unavailable',
  /** HTTP 405: /mcp answers POST only. */
  'method_not_allowed',
] as const;

export type GatewayRefusalCode = (typeof GATEWAY_REFUSAL_CODES)[number];

/** Every code a refusal of the gateway may carry, whatever it refused (a tool call, a resource read, a request). */
export type ToolRefusalCode = GatewayRefusalCode | StandardsApiErrorCode;

/** The key, in a refused tools/call result's `_meta` or a JSON-RPC error's `data`, whose value is a ToolRefusal. */
export const TOOL_REFUSAL_META = 'stdreg.dev/refusal';

export interface ToolRefusal {
  code: ToolRefusalCode;
}
