import { getMetadataStorage } from 'class-validator';

interface ValidationRule {
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
  target: unknown;
}
type Schema = Record<string, unknown>;

/** The JSON Schema keywords that say what a class-validator rule accepts, where one says it exactly. */
function keywordsOf(rule: ValidationRule): Schema {
  const [first, second] = rule.constraints ?? [];
  switch (rule.name) {
    case 'matches':
      return first instanceof RegExp && /^u?$/.test(first.flags) && second === undefined ? { pattern: first.source } : {};
    // contracts' IsDisplayText, which carries its rule as a pattern.
    case 'isDisplayText':
      return first instanceof RegExp && /^u?$/.test(first.flags) ? { pattern: first.source } : {};
    case 'isLength':
      return {
        ...(typeof first === 'number' && first > 0 ? { minLength: first } : {}),
        ...(typeof second === 'number' ? { maxLength: second } : {}),
      };
    case 'maxLength':
      return { maxLength: first };
    case 'minLength':
      return { minLength: first };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    case 'isIn':
      return Array.isArray(first) ? { enum: first } : {};
    case 'isUuid':
      return { format: 'uuid' };
    case 'isInt':
      return { type: 'integer' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'arrayMaxSize':
      return { maxItems: first };
    case 'arrayMinSize':
      return { minItems: first };
    case 'arrayNotEmpty':
      return { minItems: 1 };
    case 'arrayUnique':
      return { uniqueItems: true };
    default:
      return {};
  }
}

/**
 * Writes the request DTOs' class-validator rules (pattern, lengths, bounds, enums, uuid, item counts) into the
 * document's schemas of the same name, where the schema does not say them already: the validation pipe applies
 * them, so a body the document calls valid is one the service takes.
 */
export function describeValidationRules(served: object): void {
  const document = served as { components?: { schemas?: Record<string, Schema> }; paths?: Record<string, Record<string, Schema>> };
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationRule[]> };
  // A DTO's rules include those it inherits.
  const rulesOf = (target: unknown): ValidationRule[] => {
    const rules: ValidationRule[] = [];
    for (let type = target; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type))
      rules.push(...(storage.validationMetadatas.get(type) ?? []));
    return rules;
  };
  const queryRules = new Map<string, Set<string>>();
  for (const target of storage.validationMetadatas.keys()) {
    const name = (target as { name?: string }).name ?? '';
    const rules = rulesOf(target);
    if (name.endsWith('QueryDto')) {
      const byProperty = new Map<string, Schema>();
      for (const rule of rules)
        if (!rule.each) byProperty.set(rule.propertyName, { ...keywordsOf(rule), ...byProperty.get(rule.propertyName) });
      for (const [property, keywords] of byProperty)
        (queryRules.get(property) ?? queryRules.set(property, new Set()).get(property)!).add(JSON.stringify(keywords));
    }
    const properties = schemas[name]?.['properties'] as Record<string, Schema> | undefined;
    if (properties) for (const rule of rules) describeRule(properties, rule);
  }
  // A query DTO's properties are spread into parameters: a parameter takes the rules its name has in every query DTO alike.
  for (const item of Object.values(document.paths ?? {}))
    for (const operation of Object.values(item))
      for (const parameter of (operation['parameters'] ?? []) as Schema[]) {
        const agreed = queryRules.get(String(parameter['name']));
        if (parameter['in'] !== 'query' || agreed?.size !== 1 || !parameter['schema']) continue;
        const schema = parameter['schema'] as Schema;
        for (const [keyword, value] of Object.entries(JSON.parse([...agreed][0]!) as Schema))
          if (schema[keyword] === undefined) schema[keyword] = value;
      }
}

function describeRule(properties: Record<string, Schema>, rule: ValidationRule): void {
  const property = properties[rule.propertyName];
  if (!property) return;
  const where = rule.each ? ((property['items'] ?? {}) as Schema) : property;
  if (where['$ref'] || where['oneOf'] || where['allOf']) return;
  for (const [keyword, value] of Object.entries(keywordsOf(rule)))
    if (where[keyword] === undefined || (keyword === 'type' && where[keyword] === 'number')) where[keyword] = value;
  if (rule.each && !property['items']) property['items'] = where;
}
