// `node migrate.js`: brings the database schema up to date and exits (the Kubernetes migration Job).
import { runMigrationCommand } from '@stdreg/server-kit/database';
import { StandardsApiConfig } from './config/standards-api.config';
import { STANDARDS_API_MIGRATIONS } from './migrations';

await runMigrationCommand({ service: 'standards-api', configClass: StandardsApiConfig, migrations: STANDARDS_API_MIGRATIONS });
