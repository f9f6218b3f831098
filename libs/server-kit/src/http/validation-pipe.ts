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
      return super.transform(value, metadata);
    }
    const key = `${metadata.metatype.name}?${JSON.stringify(value)}`;
    let result = this.queryResults.get(key);
    if (!result) {
      try {
        result = { value: Object.freeze(await super.transform(value, metadata)) };
      } catch (error) {
        result = { error };
      }
      if (this.queryResults.size >= QUERY_CACHE_LIMIT) this.queryResults.clear();
      this.queryResults.set(key, result);
    }
    if ('error' in result) throw result.error;
    return result.value;
  }
}

/** Global validation: unknown fields are rejected, and each failure names its field. */
export function createValidationPipe(): ValidationPipe {
  return new QueryMemoizingValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new DomainError(ErrorCode.ValidationFailed, 'The request is invalid.', flattenValidationErrors(errors)),
  });
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      result.push({ field, message: message.replace(/^property (\S+) should not exist$/, `$1 is not an accepted field`) });
    }
    if (error.children?.length) result.push(...flattenValidationErrors(error.children, field));
  }
  return result;
}
