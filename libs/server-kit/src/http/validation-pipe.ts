import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode, type FieldError } from '@stdreg/contracts';
import { DomainError } from './domain-error';

/** Global validation: unknown fields are rejected, and each failure names its field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new DomainError(ErrorCode.ValidationFailed, 'The request is invalid.', flattenValidationErrors(errors)),
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
