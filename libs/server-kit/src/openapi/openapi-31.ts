/** The generator writes OpenAPI 3.0 `nullable`; 3.1 (JSON Schema 2020-12) says it with a type list. */
export function toOpenApi31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi31);
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) result[key] = toOpenApi31(value);
  if (result['nullable'] === true) {
    delete result['nullable'];
    if (typeof result['type'] === 'string') result['type'] = [result['type'], 'null'];
    else if (result['$ref'] || result['allOf']) {
      const { description, ...schema } = result;
      return { ...(description ? { description } : {}), oneOf: [schema, { type: 'null' }] };
    }
  }
  return result;
}
