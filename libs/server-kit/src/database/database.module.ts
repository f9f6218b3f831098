import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MIGRATE_ON_START } from './migration-policy';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import path from 'node:path';
import { EmbeddedPostgres } from './embedded-postgres';
import type { ReadinessCheck } from '../health/health.module';

export interface DatabaseModuleOptions {
  /** Service name: the embedded database lives under DATA_DIR/<service>. */
  service: string;
  databaseUrl?: string;
  dataDir: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity/migration classes
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for migration classes
  migrations: MixedList<Function | string>;
  /**
   * `true` (default): bring the schema up to date. `false`: only check that it is, and refuse to start
   * when a migration is pending (the migration Job runs them; see `runMigrationCommand`).
   */
  migrate?: boolean;
}

/** Taken by every service process that migrates, so replicas starting together migrate one at a time. */
const MIGRATION_LOCK = 0x73746472; // "stdr"

export class PendingMigrationsError extends Error {
  constructor(service: string) {
    super(`${service}: the database schema is not up to date and MIGRATE_ON_START is false; run the migration command (node migrate.js) first`);
    this.name = 'PendingMigrationsError';
  }
}

const DATABASE_HANDLE = Symbol('DATABASE_HANDLE');

/** The open connection and, for the embedded default, the PGlite server behind it. */
export class DatabaseHandle {
  constructor(
    readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  get isEmbedded(): boolean {
    return this.embedded !== undefined;
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}

/** Opens the service's database and brings its schema up to date with its migrations. */
export async function openDatabase(options: DatabaseModuleOptions): Promise<DatabaseHandle> {
  const embedded = options.databaseUrl
    ? undefined
    : await EmbeddedPostgres.start(
        options.dataDir === 'memory://' ? 'memory://' : path.resolve(options.dataDir, options.service, 'pgdata'),
      );
  const connection: Partial<DataSourceOptions> = embedded
    ? { ...embedded.connection, extra: { max: 1 } }
    : { url: options.databaseUrl, extra: { max: 10 } };
  const dataSource = new DataSource({
    type: 'postgres',
    ...connection,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
  } as DataSourceOptions);
  try {
    await dataSource.initialize();
    if (options.migrate === false) {
      if (await dataSource.showMigrations()) throw new PendingMigrationsError(options.service);
    } else {
      await migrate(dataSource, embedded !== undefined);
    }
  } catch (error) {
    await new DatabaseHandle(dataSource, embedded).close();
    throw error;
  }
  return new DatabaseHandle(dataSource, embedded);
}

async function migrate(dataSource: DataSource, embedded: boolean): Promise<void> {
  // The embedded pool has one connection and one process: no lock, and none could be held beside the migration.
  if (embedded) return void (await dataSource.runMigrations({ transaction: 'each' }));
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).finally(() => lock.release());
  }
}

class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle) {}
  async onApplicationShutdown(): Promise<void> {
    await this.handle.close();
  }
}

export function databaseReadinessCheck(dataSource: DataSource): ReadinessCheck {
  return { name: 'database', check: async () => void (await dataSource.query('SELECT 1')) };
}

/** Provides `DataSource` to the service's repositories and closes it on shutdown. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DATABASE_HANDLE,
          useFactory: (migrateOnStart?: boolean) => openDatabase({ ...options, migrate: options.migrate ?? migrateOnStart ?? true }),
          inject: [{ token: MIGRATE_ON_START, optional: true }],
        },
        { provide: DataSource, useFactory: (handle: DatabaseHandle) => handle.dataSource, inject: [DATABASE_HANDLE] },
        DatabaseLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
