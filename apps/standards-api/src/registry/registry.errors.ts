import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';

export const registryNotFound = (what: string): DomainError =>
  new DomainError(ErrorCode.NotFound, `${what} does not exist in the registry.`);

export const registryEmpty = (): DomainError =>
  new DomainError(ErrorCode.ServiceUnavailable, 'The registry has no content yet: import a content pack first.');

export const conflictingPolicyQuery = (): DomainError =>
  new DomainError(ErrorCode.ValidationFailed, 'Use either version or at, not both.', [
    { field: 'version', message: 'version cannot be combined with at' },
    { field: 'at', message: 'at cannot be combined with version' },
  ]);
