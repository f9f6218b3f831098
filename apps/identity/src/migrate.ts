// `node migrate.js`: brings the database schema up to date and exits (the Kubernetes migration Job).
import { runMigrationCommand } from '@stdreg/server-kit/database';
import { IdentityConfig } from './platform/config/identity.config';
import { IDENTITY_MIGRATIONS } from './migrations';

await runMigrationCommand({ service: 'identity', configClass: IdentityConfig, migrations: IDENTITY_MIGRATIONS });
