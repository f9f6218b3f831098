// The shape of what a client sends, checked before the SDK sees it: the SDK answers JSON that is no JSON-RPC message
// with -32700 and a malformed request with -32603 and a raw schema dump; JSON-RPC and the spec ask for -32600 and -32602.
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { ClientRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcErrorCode, jsonRpcError, type JsonRpcErrorBody } from './protocol';

type RequestSchema = (typeof ClientRequestSchema.options)[number];

const SCHEMAS = new Map<string, RequestSchema>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

export interface ShapeError {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

/**
 * The answer (HTTP 400) to a JSON-RPC batch: MCP 2025-11-25 (basic/transports, "Sending Messages to the Server") says a
 * POST body is one request, notification or response, and its server "cannot accept the input" otherwise. JSON-RPC's
 * Invalid Request, with no id, as the SDK answers a batch on its newest revision. Checked before anything is counted
 * or authorized, so a batch spends no tool-call token.
 */
export function batchAnswer(body: unknown, contentType: string | undefined): JsonRpcErrorBody | null {
  if (!isJsonContentType(contentType) || !Array.isArray(body)) return null;
  return jsonRpcError(
    JsonRpcErrorCode.InvalidRequest,
    'Invalid Request: a JSON-RPC batch is not an MCP 2025-11-25 message; send each request or notification in a POST of its own.',
  );
}

/**
 * The answer (HTTP 400) to JSON that is not a JSON-RPC message: JSON-RPC's Invalid Request, where the SDK would answer
 * -32700, the code of a body that is not JSON at all. A body of another media type was never read as JSON: the SDK
 * refuses it (415), by the same test of the Content-Type.
 */
export function invalidMessageAnswer(body: unknown, contentType: string | undefined): JsonRpcErrorBody | null {
  if (!isJsonContentType(contentType) || JSONRPCMessageSchema.safeParse(body).success) return null;
  return jsonRpcError(
    JsonRpcErrorCode.InvalidRequest,
    'Invalid Request: not a JSON-RPC 2.0 request, notification or response (jsonrpc "2.0", a string method, an id that is a string or a number).',
  );
}

/** The JSON-RPC error for a request whose params do not have its method's shape; null when they do (or it is no request). */
export function requestShapeAnswer(message: unknown): ShapeError | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const schema = SCHEMAS.get(method);
  if (!schema) return null;
  const checked = schema.safeParse(message);
  if (checked.success) return null;
  const problems = checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`);
  return {
    jsonrpc: '2.0',
    id,
    error: { code: JsonRpcErrorCode.InvalidParams, message: `Invalid params for ${method}: ${problems.join('; ')}` },
  };
}
