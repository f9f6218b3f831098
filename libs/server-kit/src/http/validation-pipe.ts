import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode, type FieldError } from '@stdreg/contracts';
import { DomainError } from './domain-error';

const QUERY_CACHE_LIMIT = 2048;

/**
 * Validation with class-validator where a query string is validated once: the same query against
 * the same DTO class always gives the same result, so hot read routes skip the transform and the
 * validators on repeat requests. Cached query DTOs are frozen; bodies are always validated afresh.
 */
class QueryMemoizingValidationPipe extends ValidationPipe {
  private readonly queryResults = new Map<string, { value: unknown } | { error: unknown }>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'query' || !metadata.metatype || typeof value !== 'object' || value === null) {
      return this.validated(value, metadata);
    }
    const key = `${metadata.metatype.name}?${JSON.stringify(value)}`;
    let result = this.queryResults.get(key);
    if (!result) {
      try {
        result = { value: Object.freeze(await this.validated(value, metadata)) };
      } catch (error) {
        result = { error };
      }
      if (this.queryResults.size >= QUERY_CACHE_LIMIT) this.queryResults.clear();
      this.queryResults.set(key, result);
    }
    if ('error' in result) throw result.error;
    return result.value;
  }

  // A single path or query value declared a number stays text here: `Number()` would read `01`, `1e0` and
  // `0x1` as 1, and the pipe that reads it (ParseStoredIntegerPipe) refuses every spelling but the plain one.
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.metatype === Number && typeof value === 'string') return value;
    return super.transformPrimitive(value, metadata);
  }

  // A field declared a number or a date is converted before it is validated; a JSON object whose own
  // `toString` is not a method cannot be converted, and the conversion throws a TypeError.
  private async validated(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      const field = error instanceof TypeError ? unconvertibleField(value) : null;
      if (field === null) throw error;
      throw new DomainError(ErrorCode.ValidationFailed, 'The request is invalid.', [
        { field, message: `${field} is an object that has no number, text or date value` },
      ]);
    }
  }
}

/** The path of the first object in a parsed JSON value that cannot be read as a primitive, or null. */
export function unconvertibleField(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (!Array.isArray(current) && !convertible(current)) return path || 'body';
    const entries = Array.isArray(current)
      ? current.map((item, index) => [`[${index}]`, item] as const)
      : Object.entries(current).map(([key, item]) => [path ? `.${key}` : key, item] as const);
    for (const [step, item] of entries.reverse()) pending.push({ value: item, path: `${path}${step}` });
  }
  return null;
}

function convertible(object: object): boolean {
  try {
    Number(object);
    String(object);
    return true;
  } catch {
    return false;
  }
}

/** Global validation: unknown fields are rejected, and each failure names its field. */
export function createValidationPipe(): ValidationPipe {
  return new QueryMemoizingValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Every rule is run and flattenValidationErrors keeps the first one broken as the DTO reads, top down.
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new DomainError(ErrorCode.ValidationFailed, 'The request is invalid.', flattenValidationErrors(errors)),
  });
}

/**
 * One message a field: the rule broken first as the DTO reads, top down. Stacked decorators register
 * bottom up, so that is the last of the field's constraints (`limit=abc` is "not an integer", not
 * "greater than 100").
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    const message = Object.values(error.constraints ?? {}).at(-1);
    if (message !== undefined) {
      result.push({ field, message: message.replace(/^property (\S+) should not exist$/, `$1 is not an accepted field`) });
    }
    if (error.children?.length) result.push(...flattenValidationErrors(error.children, field));
  }
  return result;
}
