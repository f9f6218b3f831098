// The operations a service describes in its own OpenAPI document, as the fuzzer needs them: where each
// parameter goes, its schema, and the request body's schema with every $ref resolved.

export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The path template, e.g. `/api/v2/split-projects/{id}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body?: Schema;
  /** Whether the document names a security requirement (a credential) for it. */
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export async function fetchOperations(documentUrl: string): Promise<Operation[]> {
  const response = await fetch(documentUrl);
  if (!response.ok) throw new Error(`${documentUrl} answered ${response.status}`);
  return operationsOf((await response.json()) as OpenApiDocument);
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (schema: unknown, seen: Set<string> = new Set()): Schema => resolveRefs(schema, document, seen) as Schema;
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, raw]) => {
        const operation = raw as {
          parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
          requestBody?: { content?: Record<string, { schema?: unknown }> };
          security?: unknown[];
        };
        const parameters = (operation.parameters ?? [])
          .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
          .map((p) => ({ name: p.name, in: p.in as Parameter['in'], required: p.required ?? false, schema: resolve(p.schema ?? {}) }));
        const content = operation.requestBody?.content;
        const bodySchema = content ? Object.values(content)[0]?.schema : undefined;
        return {
          method: method.toUpperCase(),
          path,
          parameters,
          ...(bodySchema ? { body: resolve(bodySchema) } : {}),
          secured: (operation.security ?? []).length > 0,
        };
      }),
  );
}

/** A copy of the schema with `$ref`s replaced by what they name (a reference back into itself becomes `{}`). */
function resolveRefs(schema: unknown, document: OpenApiDocument, seen: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, document, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return {};
    const named = document.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
    return resolveRefs(named, document, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, document, seen)]));
}
