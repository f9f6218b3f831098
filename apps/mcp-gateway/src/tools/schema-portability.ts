// The JSON Schema subset the gateway publishes for tools, so that strict clients (the MCP Inspector's
// portability check, hosts that turn tool schemas into function-calling schemas) accept it unwarned.

type Schema = Record<string, unknown>;

/**
 * What in a published schema is not portable, each with its JSON pointer:
 * - `type` as an array (`["string","null"]`): written as `anyOf` of single types instead;
 * - `additionalProperties` that is `true` or an untyped schema (`{}`): a free-form object says so by
 *   leaving the keyword out, which means the same;
 * - `propertyNames`, which many clients do not know (JSON object keys are strings anyway).
 */
export function portabilityProblems(schema: unknown, pointer = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((item, index) => portabilityProblems(item, `${pointer}/${index}`));
  const node = schema as Schema;
  const problems: string[] = [];
  if (Array.isArray(node['type'])) problems.push(`${pointer || '/'}: type is an array (${JSON.stringify(node['type'])})`);
  const additional = node['additionalProperties'];
  if (additional === true || (typeof additional === 'object' && additional !== null && !hasType(additional as Schema))) {
    problems.push(`${pointer || '/'}: additionalProperties allows values of any type`);
  }
  if (node['propertyNames'] !== undefined) problems.push(`${pointer || '/'}: propertyNames`);
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'object' && value !== null) problems.push(...portabilityProblems(value, `${pointer}/${key}`));
  }
  return problems;
}

function saysNothing(key: string, value: unknown): boolean {
  const empty = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  if (key === 'additionalProperties') return value === true || empty;
  if (key === 'propertyNames') return empty || JSON.stringify(value) === '{"type":"string"}';
  return false;
}

function hasType(schema: Schema): boolean {
  return (
    typeof schema['type'] === 'string' ||
    Array.isArray(schema['anyOf']) ||
    Array.isArray(schema['oneOf']) ||
    typeof schema['$ref'] === 'string'
  );
}

/**
 * The same schema in the portable subset, meaning the same: every `type` array written as `anyOf` of
 * single-typed alternatives, `additionalProperties: {}` or `true` and `propertyNames: { type: 'string' }`
 * left out.
 */
export function portableSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map(portableSchema);
  const entries = Object.entries(schema as Schema).filter(([key, value]) => !saysNothing(key, value));
  const node = Object.fromEntries(entries.map(([key, value]) => [key, portableSchema(value)]));
  const type = node['type'];
  if (!Array.isArray(type)) return node;
  const { type: _types, ...rest } = node;
  const nullable = type.includes('null');
  const others = type.filter((candidate) => candidate !== 'null') as string[];
  const keywordsOf = (single: string) => ({ ...rest, type: single });
  const alternatives: Schema[] = [...others.map(keywordsOf), ...(nullable ? [{ type: 'null' }] : [])];
  return alternatives.length === 1 ? alternatives[0] : { anyOf: alternatives };
}
