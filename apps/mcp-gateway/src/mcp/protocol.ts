// Constants of the tool protocol as this gateway speaks it.
import { TOOL_REFUSAL_META, type ToolRefusal, type ToolRefusalCode } from '@stdreg/contracts';

export const PROTOCOL_VERSION = '2025-11-25';
export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/** JSON-RPC error codes the gateway answers with (the spec's, where the SDK differs). */
export const JsonRpcErrorCode = {
  InvalidRequest: -32600,
  InvalidParams: -32602,
  ResourceNotFound: -32002,
  /** Transport-level refusals (origin, version, rate limit) carry the HTTP status as well. */
  Refused: -32000,
} as const;

export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  error: { code: number; message: string; data?: { [TOOL_REFUSAL_META]: ToolRefusal } };
  id: null;
}

/** The body of a JSON-RPC error answered before any MCP server sees the request; a refusal's code goes in `data`. */
export function jsonRpcError(code: number, message: string, refusal?: ToolRefusalCode): JsonRpcErrorBody {
  return { jsonrpc: '2.0', error: { code, message, ...(refusal === undefined ? {} : { data: refusalMeta(refusal) }) }, id: null };
}

/** Why the gateway refused, under the key a JSON-RPC error's `data` and a refused tools/call's `_meta` both use. */
export function refusalMeta(code: ToolRefusalCode): { [TOOL_REFUSAL_META]: ToolRefusal } {
  return { [TOOL_REFUSAL_META]: { code } };
}
