/** Provided by the kit from MIGRATE_ON_START: whether a service's DatabaseModule migrates when it opens. */
export const MIGRATE_ON_START = Symbol('MIGRATE_ON_START');
