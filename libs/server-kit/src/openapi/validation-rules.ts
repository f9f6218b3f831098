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
  const schemas = ((served as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {}) as Record<string, Schema>;
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationRule[]> };
  for (const target of storage.validationMetadatas.keys()) {
    const schema = schemas[(target as { name?: string }).name ?? ''];
    // A DTO's rules include those it inherits.
    const rules: ValidationRule[] = [];
    for (let type = target; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type))
      rules.push(...(storage.validationMetadatas.get(type) ?? []));
    const properties = schema?.['properties'] as Record<string, Schema> | undefined;
    if (!properties) continue;
    for (const rule of rules) {
      const property = properties[rule.propertyName];
      if (!property) continue;
      const where = rule.each ? ((property['items'] ?? {}) as Schema) : property;
      if (where['$ref'] || where['oneOf'] || where['allOf']) continue;
      for (const [keyword, value] of Object.entries(keywordsOf(rule)))
        if (where[keyword] === undefined || (keyword === 'type' && where[keyword] === 'number')) where[keyword] = value;
      if (rule.each && !property['items']) property['items'] = where;
    }
  }
}
