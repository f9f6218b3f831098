import { Module } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CommonServiceConfig, createServiceApp, loadConfig, type ServiceDefinition } from '../src';
import { DatabaseModule, maintenanceTransaction, openDatabase, PendingMigrationsError } from '../src/database';
import { createTestDatabase, type TestDatabase } from '../src/testing';

class CreateThings1700000000000 implements MigrationInterface {
  name = 'CreateThings1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE thing (id int PRIMARY KEY)');
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE thing');
  }
}

/** database.module's MIGRATION_LOCK. */
const MIGRATION_LOCK = 0x73746472;

const where = (database: TestDatabase) =>
  database.kind === 'server' ? { databaseUrl: database.env['DATABASE_URL']!, dataDir: '.data' } : { dataDir: 'memory://' };

class ThingsConfig extends CommonServiceConfig {}
@Module({})
class ThingsModule {}
const things = (database: TestDatabase): ServiceDefinition<ThingsConfig> => ({
  service: 'things',
  configClass: ThingsConfig,
  rootModule: () => ({
    module: ThingsModule,
    imports: [DatabaseModule.forRoot({ service: 'things', ...where(database), entities: [], migrations: [CreateThings1700000000000] })],
  }),
  port: () => 0,
  host: () => '127.0.0.1',
});

describe('migrations on start, or by the migration command', () => {
  let database: TestDatabase;
  beforeEach(async () => (database = await createTestDatabase('kit_migrations')));
  afterEach(() => database.drop());

  it('with MIGRATE_ON_START=false refuses to start while a migration is pending, and changes nothing', async () => {
    const config = loadConfig(ThingsConfig, { LOG_LEVEL: 'fatal', MIGRATE_ON_START: 'false' });
    await expect(createServiceApp(things(database), config)).rejects.toThrow(PendingMigrationsError);
    if (database.kind === 'server') {
      const handle = await openDatabase({ service: 'things', ...where(database), entities: [], migrations: [], migrate: false });
      expect(await handle.dataSource.query(`SELECT to_regclass('thing') AS thing`)).toEqual([{ thing: null }]);
      await handle.close();
    }
  });

  it('starts with MIGRATE_ON_START=false once the schema is up to date, and migrates on start by default', async () => {
    const config = loadConfig(ThingsConfig, { LOG_LEVEL: 'fatal' });
    expect(config.MIGRATE_ON_START).toBe(true);
    if (database.kind === 'server') {
      const migrated = await openDatabase({
        service: 'things',
        ...where(database),
        entities: [],
        migrations: [CreateThings1700000000000],
        migrate: true,
      });
      await migrated.close();
      const app = await createServiceApp(things(database), loadConfig(ThingsConfig, { LOG_LEVEL: 'fatal', MIGRATE_ON_START: 'false' }));
      await app.init();
      await app.close();
    } else {
      // The in-memory embedded database lives as long as the app: migrating on start is what makes it usable.
      const app = await createServiceApp(things(database), config);
      await app.init();
      await app.close();
    }
  });

  it('refuses a MIGRATE_ON_START that is not true or false, naming it', () => {
    expect(() => loadConfig(ThingsConfig, { MIGRATE_ON_START: 'yes' })).toThrow(/MIGRATE_ON_START must be true or false/);
  });
});

// Replicas (or a Job and a replica) migrating at the same moment need one server both reach.
if (process.env['DATABASE_URL']) {
  it('applies each migration once when several processes migrate the same database at the same time', async () => {
    const database = await createTestDatabase('kit_migrations_race');
    try {
      const handles = await Promise.all(
        Array.from({ length: 3 }, () =>
          openDatabase({ service: 'things', ...where(database), entities: [], migrations: [CreateThings1700000000000] }),
        ),
      );
      expect(await handles[0]!.dataSource.query('SELECT name FROM schema_migrations')).toEqual([{ name: 'CreateThings1700000000000' }]);
      await Promise.all(handles.map((handle) => handle.close()));
    } finally {
      await database.drop();
    }
  });

  it("migrates under the maintenance bound, not the requests': waiting for another replica's migrations and running longer than a request's statement", async () => {
    const database = await createTestDatabase('kit_migrations_bound');
    class SlowMigration1700000000100 implements MigrationInterface {
      name = 'SlowMigration1700000000100';
      async up(runner: QueryRunner): Promise<void> {
        await runner.query('SELECT pg_sleep(0.3)');
      }
      async down(): Promise<void> {}
    }
    try {
      const replica = await openDatabase({ service: 'things', ...where(database), entities: [], migrations: [], statementTimeoutMs: 100 });
      const lock = replica.dataSource.createQueryRunner();
      await lock.connect();
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      setTimeout(() => void lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).finally(() => lock.release()), 300);
      const migrated = await openDatabase({
        service: 'things',
        ...where(database),
        entities: [],
        migrations: [CreateThings1700000000000, SlowMigration1700000000100],
        statementTimeoutMs: 100,
      });
      expect(await migrated.dataSource.query('SELECT name FROM schema_migrations ORDER BY id')).toHaveLength(2);
      // The connection they ran on went back to the pool with the requests' bound.
      await expect(migrated.dataSource.query('SELECT pg_sleep(0.3)')).rejects.toMatchObject({ driverError: { code: '57014' } });
      await Promise.all([migrated.close(), replica.close()]);
    } finally {
      await database.drop();
    }
  });

  it('runs purges and imports (maintenanceTransaction) under the maintenance bound, and requests under theirs', async () => {
    const database = await createTestDatabase('kit_maintenance_bound');
    const open = (maintenanceStatementTimeoutMs: number) =>
      openDatabase({
        service: 'things',
        ...where(database),
        entities: [],
        migrations: [],
        statementTimeoutMs: 100,
        maintenanceStatementTimeoutMs,
      });
    try {
      const unbounded = await open(0);
      await expect(unbounded.dataSource.query('SELECT pg_sleep(0.3)')).rejects.toMatchObject({ driverError: { code: '57014' } });
      await expect(maintenanceTransaction(unbounded.dataSource, (manager) => manager.query('SELECT pg_sleep(0.3)'))).resolves.toBeDefined();
      await expect(unbounded.dataSource.query('SELECT pg_sleep(0.3)')).rejects.toMatchObject({ driverError: { code: '57014' } });
      await unbounded.close();
      const bounded = await open(200);
      await expect(maintenanceTransaction(bounded.dataSource, (manager) => manager.query('SELECT pg_sleep(0.3)'))).rejects.toMatchObject({
        driverError: { code: '57014' },
      });
      await bounded.close();
    } finally {
      await database.drop();
    }
  });
}
