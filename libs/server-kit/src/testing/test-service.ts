import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { loadConfig } from '../config/load-config';
import type { CommonServiceConfig } from '../config/common-config';
import { createServiceApp, type ServiceDefinition } from '../http/run-service';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface RunningTestService {
  app: NestExpressApplication;
  server: Server;
  database: TestDatabase;
  close(): Promise<void>;
}

/** A real service app (not listening) on a throwaway database, for tests that drive it over HTTP. */
export async function startTestService<C extends CommonServiceConfig>(
  definition: ServiceDefinition<C>,
  env: Record<string, string> = {},
): Promise<RunningTestService> {
  const database = await createTestDatabase(definition.service);
  const config = loadConfig(definition.configClass, { LOG_LEVEL: 'error', ...database.env, ...env });
  const app = await createServiceApp(definition, config);
  await app.init();
  return {
    app,
    server: app.getHttpServer() as Server,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
