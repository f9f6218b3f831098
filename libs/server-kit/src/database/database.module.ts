import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
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
    await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await new DatabaseHandle(dataSource, embedded).close();
    throw error;
  }
  return new DatabaseHandle(dataSource, embedded);
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
        { provide: DATABASE_HANDLE, useFactory: () => openDatabase(options) },
        { provide: DataSource, useFactory: (handle: DatabaseHandle) => handle.dataSource, inject: [DATABASE_HANDLE] },
        DatabaseLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
