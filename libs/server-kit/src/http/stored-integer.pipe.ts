import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ErrorCode, STORED_INTEGER_MAX } from '@stdreg/contracts';
import { DomainError } from './domain-error';

/** A path or query integer from 1 to STORED_INTEGER_MAX; `optional` lets an absent one through as undefined. Used as an instance. */
export class ParseStoredIntegerPipe implements PipeTransform<string | number | undefined, number | undefined> {
  constructor(private readonly options: { optional?: boolean } = {}) {}

  // The global ValidationPipe leaves the text as it came (createValidationPipe); a number is read as its decimal text.
  transform(value: string | number | undefined, metadata: ArgumentMetadata): number | undefined {
    if (value === undefined && this.options.optional) return undefined;
    const text = typeof value === 'number' ? String(value) : value;
    const parsed = typeof text === 'string' && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : NaN;
    if (!(parsed <= STORED_INTEGER_MAX)) {
      const field = metadata.data ?? 'value';
      throw new DomainError(ErrorCode.ValidationFailed, 'The request is invalid.', [
        { field, message: `${field} must be an integer from 1 to ${STORED_INTEGER_MAX}` },
      ]);
    }
    return parsed;
  }
}
