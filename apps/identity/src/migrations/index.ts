import { IdentityCore1763900000000 } from './1763900000000-identity-core';

/** Every migration of identity, in order. */
export const IDENTITY_MIGRATIONS = [IdentityCore1763900000000];
