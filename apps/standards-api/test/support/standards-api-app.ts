import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { createTestDatabase, type TestDatabase } from '@stdreg/server-kit/testing';
import { StandardsApiConfig } from '../../src/config/standards-api.config';
import { STANDARDS_API } from '../../src/standards-api.service';

export interface RunningStandardsApi {
  app: NestExpressApplication;
  server: Server;
  dataSource: DataSource;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real standards-api on a database of its own (PostgreSQL with DATABASE_URL, PGlite otherwise). */
export async function startStandardsApi(env: Record<string, string> = {}): Promise<RunningStandardsApi> {
  const database = await createTestDatabase('standards_api');
  const config = loadConfig(StandardsApiConfig, { LOG_LEVEL: 'error', ...database.env, ...env });
  const app = await createServiceApp(STANDARDS_API, config);
  await app.init();
  return {
    app,
    server: app.getHttpServer() as Server,
    dataSource: app.get(DataSource),
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
