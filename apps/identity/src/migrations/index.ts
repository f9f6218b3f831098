import { IdentityCore1763900000000 } from './1763900000000-identity-core';
import { UserMirrorRegistryOrder1763900000100 } from './1763900000100-user-mirror-registry-order';

/** Every migration of identity, in order. */
export const IDENTITY_MIGRATIONS = [IdentityCore1763900000000, UserMirrorRegistryOrder1763900000100];
