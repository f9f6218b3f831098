import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MIGRATE_ON_START } from './migration-policy';
import { DataSource, type DataSourceOptions, type EntityManager, MigrationExecutor, type MixedList, type EntitySchema } from 'typeorm';
import path from 'node:path';
import type pg from 'pg';
import { EmbeddedPostgres } from './embedded-postgres';
import { ThrowawayImages } from './throwaway-images';
import { preparedQuery } from './prepared-query';
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
  /** Milliseconds an unused pooled connection stays open (default: pg's 10 s). */
  poolIdleTimeoutMs?: number;
  /**
   * On a PostgreSQL server, the longest one statement of the pool's connections may run, lock waits included
   * (its `statement_timeout`; default DEFAULT_STATEMENT_TIMEOUT_MS). Maintenance lifts it (`maintenanceStatementTimeoutMs`).
   */
  statementTimeoutMs?: number;
  /** The bound of migrations (and their lock's wait), purges and the content import (`maintenanceTransaction`); 0: none (default). */
  maintenanceStatementTimeoutMs?: number;
  /**
   * `true` (default): bring the schema up to date. `false`: only check that it is, and refuse to start
   * when a migration is pending (the migration Job runs them; see `runMigrationCommand`).
   */
  migrate?: boolean;
  /** Where a throwaway (`memory://`) database's start images are kept (see ThrowawayImages). */
  imagesFolder?: string;
}

/** Taken by every service process that migrates, so replicas starting together migrate one at a time. */
const MIGRATION_LOCK = 0x73746472; // "stdr"

export class PendingMigrationsError extends Error {
  constructor(service: string) {
    super(
      `${service}: the database schema is not up to date and MIGRATE_ON_START is false; run the migration command (node migrate.js) first`,
    );
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

  /** A throwaway embedded database that began as its service's stored schema image (see ThrowawayImages). */
  get startedFromSchemaImage(): boolean {
    return this.embedded?.fromSchemaImage ?? false;
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}

const DEFAULT_POOL_IDLE_TIMEOUT_MS = 10_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** Each data source's maintenance bound, for `maintenanceTransaction` (repositories hold the DataSource, not the options). */
const maintenanceBounds = new WeakMap<DataSource, number>();

/**
 * How long a query waits for a connection of a PostgreSQL server's pool, or for a new one to open, before it fails
 * (answered 503, like a lost connection). Without a bound, every request behind the pool's 10 connections, all held
 * by queries the database does not answer, waited for as long as the database did: for ever, when it hangs. The
 * embedded pool's one connection serves every query of the process in turn, so a queue there is its normal state.
 */
const POOL_CONNECTION_WAIT_MS = 5_000;

/**
 * PGlite has one session, which every connection to it (the embedded server, or PGlite served over
 * TCP behind a DATABASE_URL) shares: what an earlier connection left there (named prepared
 * statements, SETs, temporary tables, an open transaction of a connection that died) would meet the
 * next one. pg-pool awaits this before a new connection serves any query, whatever ended the one
 * before it (see docs/decisions.md). On PostgreSQL proper a new connection's session is fresh and
 * this costs two round trips per connection.
 */
async function resetSession(client: pg.ClientBase): Promise<void> {
  await client.query('ROLLBACK');
  await client.query('DISCARD ALL');
}

/** Opens the service's database and brings its schema up to date with its migrations. */
export async function openDatabase(options: DatabaseModuleOptions): Promise<DatabaseHandle> {
  const throwaway = options.dataDir === 'memory://';
  const schemaImage = throwaway && options.migrate !== false ? schemaImageOf(options) : undefined;
  const embedded = options.databaseUrl
    ? undefined
    : await EmbeddedPostgres.start(throwaway ? 'memory://' : path.resolve(options.dataDir, options.service, 'pgdata'), {
        schemaImage,
        imagesFolder: options.imagesFolder,
      });
  const idleTimeoutMillis = options.poolIdleTimeoutMs ?? DEFAULT_POOL_IDLE_TIMEOUT_MS;
  // The statement bound is a startup parameter of each connection: the session's default, which RESET and
  // DISCARD ALL return to. PGlite takes the setting but never enforces it (it has no timer to cancel a query
  // with), and its one session holds no lock another could wait on; the embedded pool sets none.
  const connection: Partial<DataSourceOptions> = embedded
    ? { ...embedded.connection, extra: { max: 1, idleTimeoutMillis, onConnect: resetSession } }
    : {
        url: options.databaseUrl,
        extra: {
          max: 10,
          idleTimeoutMillis,
          connectionTimeoutMillis: POOL_CONNECTION_WAIT_MS,
          onConnect: resetSession,
          statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
        },
      };
  const dataSource = new DataSource({
    type: 'postgres',
    ...connection,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: false,
  } as DataSourceOptions);
  maintenanceBounds.set(dataSource, options.maintenanceStatementTimeoutMs ?? 0);
  try {
    await dataSource.initialize();
    if (options.migrate === false) {
      if (await dataSource.showMigrations()) throw new PendingMigrationsError(options.service);
    } else {
      await migrate(dataSource, embedded !== undefined);
      if (embedded && schemaImage && !embedded.fromSchemaImage) await embedded.keepImage(schemaImage);
    }
  } catch (error) {
    await new DatabaseHandle(dataSource, embedded).close();
    throw error;
  }
  return new DatabaseHandle(dataSource, embedded);
}

function schemaImageOf(options: DatabaseModuleOptions): string {
  const migrations = Array.isArray(options.migrations) ? options.migrations : Object.values(options.migrations);
  return ThrowawayImages.schemaImageName(
    options.service,
    migrations.map((migration) => String(migration)),
  );
}

/**
 * Runs `work` in a transaction whose statements are bounded by the maintenance bound instead of the requests'
 * (`SET LOCAL`: the connection goes back to the pool with its own bound). For purges and imports, which may
 * run longer than a request's statement.
 */
export function maintenanceTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.query(`SELECT set_config('statement_timeout', $1, true)`, [String(maintenanceBounds.get(dataSource) ?? 0)]);
    return work(manager);
  });
}

async function migrate(dataSource: DataSource, embedded: boolean): Promise<void> {
  // The embedded pool has one connection and one process: no lock, and none could be held beside the migration.
  if (embedded) return void (await dataSource.runMigrations({ transaction: 'each' }));
  // One connection for the lock and every migration, with the maintenance bound for the session: waiting for
  // another replica's migrations, or an index built on a large table, takes longer than a request's statement.
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT set_config('statement_timeout', $1, false)`, [String(maintenanceBounds.get(dataSource) ?? 0)]);
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
      .then(() => runner.query('RESET statement_timeout'))
      .finally(() => runner.release());
  }
}

class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_HANDLE) private readonly handle: DatabaseHandle) {}
  async onApplicationShutdown(): Promise<void> {
    await this.handle.close();
  }
}

/**
 * Ready when a named prepared statement runs on the pool the requests use: the hot-path queries are
 * named statements (see `preparedQuery`), so a plain `SELECT 1` could succeed where they fail.
 */
export function databaseReadinessCheck(dataSource: DataSource): ReadinessCheck {
  return { name: 'database', check: async () => void (await preparedQuery(dataSource, 'server_kit_readiness', 'SELECT 1 AS ready', [])) };
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
