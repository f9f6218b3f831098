import path from 'node:path';
import { openDatabase, preparedQuery, type DatabaseHandle } from '../src/database';
import { createTestDatabase, CuttableProxy, type TestDatabase } from '../src/testing';
import { waitUntilPoolIsEmpty } from './support/pool';

// A pooled connection that the server (or the network) ended while it sat idle is handed out before
// this process has heard of its end: the read sent on it is lost with it. The database is fine, so a
// hot-path read must not fail (identity answered 500 and readiness 503 right after the server ended
// its idle connections; see docs/reliability.md, issue 18 part 4).

describe('a read on a connection that was lost while it sat in the pool', () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let proxy: CuttableProxy;

  // Every connection goes through a proxy that can drop one under the next query: on a server, the
  // proxy is the service's DATABASE_URL; embedded, it takes the place of the database's unix socket.
  beforeAll(async () => {
    testDatabase = await createTestDatabase('connection_lost');
    const common = { service: 'connection-lost', dataDir: 'memory://', entities: [], migrations: [], poolIdleTimeoutMs: 100 };
    if (testDatabase.kind === 'server') {
      proxy = await CuttableProxy.start(testDatabase.env['DATABASE_URL']!);
      database = await openDatabase({ ...common, databaseUrl: proxy.through(testDatabase.env['DATABASE_URL']!) });
    } else {
      database = await openDatabase(common);
      const socketDir = (database.dataSource.options as { host: string }).host;
      proxy = await CuttableProxy.interpose(path.join(socketDir, '.s.PGSQL.5432'));
      await waitUntilPoolIsEmpty(database.dataSource);
    }
  }, 180_000);
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await testDatabase?.drop();
  });

  it('is run again on another connection, and answers', async () => {
    await expect(preparedQuery(database.dataSource, 'lost_read', 'SELECT 1 AS one', [])).resolves.toEqual([{ one: 1 }]);
    proxy.dropNextRequest();
    await expect(preparedQuery(database.dataSource, 'lost_read', 'SELECT 1 AS one', [])).resolves.toEqual([{ one: 1 }]);
    expect(proxy.droppedConnections).toBe(1);
  });

  it('is not run again when the query itself fails', async () => {
    await expect(preparedQuery(database.dataSource, 'failing_read', 'SELECT 1 / 0 AS never', [])).rejects.toMatchObject({ code: '22012' });
    await expect(preparedQuery(database.dataSource, 'lost_read', 'SELECT 1 AS one', [])).resolves.toEqual([{ one: 1 }]);
  });
});
