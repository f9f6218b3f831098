import { DomainError } from '@stdreg/server-kit';

export const searchNoContent = (): DomainError =>
  DomainError.of('search.no_content', 'There is nothing to search yet: import a content pack first.');
