// Constants of the tool protocol as this gateway speaks it.
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

/** The body of a JSON-RPC error answered before any MCP server sees the request. */
export function jsonRpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
