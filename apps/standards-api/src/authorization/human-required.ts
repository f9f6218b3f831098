import { DomainError } from '@stdreg/server-kit';

/** Identity already requires a person for formal writes; this is the service's own second check. */
export const humanRequired = (what: string) =>
  DomainError.of(
    'authorization.human_required',
    `Not allowed: human_required. Only a signed-in person may ${what}; API keys and agents never may.`,
  );
