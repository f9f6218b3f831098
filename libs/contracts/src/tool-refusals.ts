// Why the MCP gateway refused a tool call, as a code beside the words an agent reads: the gateway's own
// reasons, or standards-api's domain code when standards-api refused what the tool asked of it.
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
] as const;

export type GatewayRefusalCode = (typeof GATEWAY_REFUSAL_CODES)[number];

export type ToolRefusalCode = GatewayRefusalCode | StandardsApiErrorCode;

/** The `_meta` key of a refused tools/call result (`isError: true`) whose value is a ToolRefusal. */
export const TOOL_REFUSAL_META = 'stdreg.dev/refusal';

export interface ToolRefusal {
  code: ToolRefusalCode;
}
