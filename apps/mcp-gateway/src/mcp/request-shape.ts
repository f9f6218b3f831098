// The shape of a client request's params, checked before the SDK sees it: the SDK answers a malformed
// request with -32603 and a raw schema dump; the spec asks for -32602, Invalid params.
import { ClientRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcErrorCode } from './protocol';

type RequestSchema = (typeof ClientRequestSchema.options)[number];

const SCHEMAS = new Map<string, RequestSchema>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

export interface ShapeError {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

/** The JSON-RPC error for a request whose params do not have its method's shape; null when they do (or it is no request). */
export function requestShapeError(message: unknown): ShapeError | null {
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
