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
 * The answer (HTTP 400) to JSON that is not a JSON-RPC message, or a batch with one that is not (or none): JSON-RPC's
 * Invalid Request, where the SDK would answer -32700, the code of a body that is not JSON at all. A body of another
 * media type was never read as JSON: the SDK refuses it (415), by the same test of the Content-Type.
 */
export function invalidMessageAnswer(body: unknown, contentType: string | undefined): JsonRpcErrorBody | null {
  if (!isJsonContentType(contentType)) return null;
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > 0 && messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) return null;
  return jsonRpcError(
    JsonRpcErrorCode.InvalidRequest,
    'Invalid Request: not a JSON-RPC 2.0 request, notification or response (jsonrpc "2.0", a string method, an id that is a string or a number).',
  );
}

/**
 * The answer to a body with a request whose params do not have its method's shape, or null when every
 * request has its shape. In a batch, one malformed request refuses the batch so that none of it is done:
 * the malformed requests get their errors and every other request (not the notifications) is answered as
 * not processed.
 */
export function requestShapeAnswer(body: unknown): ShapeError | ShapeError[] | null {
  if (!Array.isArray(body)) return requestShapeError(body);
  const errors = body.map(requestShapeError);
  if (errors.every((error) => error === null)) return null;
  return body.flatMap((message, index) => errors[index] ?? notProcessed(message));
}

function notProcessed(message: unknown): ShapeError[] {
  const id = (message as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return [];
  return [
    {
      jsonrpc: '2.0',
      id,
      error: { code: JsonRpcErrorCode.InvalidRequest, message: 'Not processed: another request of this batch has invalid params.' },
    },
  ];
}

/** The JSON-RPC error for a request whose params do not have its method's shape; null when they do (or it is no request). */
function requestShapeError(message: unknown): ShapeError | null {
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
