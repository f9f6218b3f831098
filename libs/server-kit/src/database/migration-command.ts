import { loadConfigOrExit } from '../config/load-config';
import type { CommonServiceConfig } from '../config/common-config';
import { JsonLogger } from '../logging/json-logger';
import { openDatabase, type DatabaseModuleOptions } from './database.module';

export interface MigrationCommand<C extends CommonServiceConfig> {
  service: string;
  configClass: new () => C;
  migrations: DatabaseModuleOptions['migrations'];
}

/**
 * Entry point of a service's `migrate.js`: brings its database schema up to date and exits 0 (1 on
 * failure). The Kubernetes migration Job runs it before the Deployment's pods, which run with
 * MIGRATE_ON_START=false.
 */
export async function runMigrationCommand<C extends CommonServiceConfig>(command: MigrationCommand<C>): Promise<void> {
  const config = loadConfigOrExit(command.service, command.configClass);
  const logger = new JsonLogger(command.service, config.LOG_LEVEL);
  try {
    const database = await openDatabase({
      service: command.service,
      ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
      dataDir: config.DATA_DIR,
      maintenanceStatementTimeoutMs: config.DATABASE_MAINTENANCE_STATEMENT_TIMEOUT_MS,
      entities: [],
      migrations: command.migrations,
      migrate: true,
    });
    const applied = (await database.dataSource.query('SELECT name FROM schema_migrations ORDER BY id')) as { name: string }[];
    await database.close();
    logger.event('info', 'database schema up to date', { migrations: applied.map((m) => m.name) }, 'Migrations');
    process.exit(0);
  } catch (error) {
    logger.event('error', 'migration failed', { error: error instanceof Error ? error.message : String(error) }, 'Migrations');
    process.exit(1);
  }
}
