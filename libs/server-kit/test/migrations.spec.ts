import { Module } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CommonServiceConfig, createServiceApp, loadConfig, type ServiceDefinition } from '../src';
import { DatabaseModule, openDatabase, PendingMigrationsError } from '../src/database';
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
}
