import { DomainError } from '@stdreg/server-kit';

export const registryNotFound = (what: string): DomainError =>
  DomainError.of('registry.not_found', `${what} does not exist in the registry.`);

export const registryEmpty = (): DomainError =>
  DomainError.of('registry.empty', 'The registry has no content yet: import a content pack first.');

export const conflictingPolicyQuery = (): DomainError =>
  DomainError.of('registry.version_and_at', 'Use either version or at, not both.', {
    errors: [
      { field: 'version', message: 'version cannot be combined with at' },
      { field: 'at', message: 'at cannot be combined with version' },
    ],
  });

export const registryChanged = (etag: string): DomainError =>
  DomainError.of('registry.changed', `If-Match names no current representation: its ETag is now ${etag}.`);
