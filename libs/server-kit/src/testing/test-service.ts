import type { NestExpressApplication } from '@nestjs/platform-express';
import { appendFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { loadConfig } from '../config/load-config';
import type { CommonServiceConfig } from '../config/common-config';
import { createServiceApp, type ServiceDefinition } from '../http/run-service';
import { createTestDatabase, type TestDatabase } from './test-database';
import { openApiConformance, recordingServer } from './openapi-conformance';

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
  const report = process.env['OPENAPI_CONFORMANCE_REPORT'];
  const recording = report
    ? recordingServer(app.getHttpAdapter().getInstance() as (request: IncomingMessage, response: ServerResponse) => void)
    : undefined;
  return {
    app,
    server: recording?.server ?? (app.getHttpServer() as Server),
    database,
    close: async () => {
      if (recording && report) await reportConformance(app.getHttpServer() as Server, recording.exchanges, report);
      await app.close();
      await database.drop();
    },
  };
}

/** With OPENAPI_CONFORMANCE_REPORT=<file>, any spec's traffic is checked against the document its service serves. */
async function reportConformance(
  server: Server,
  exchanges: Parameters<ReturnType<typeof openApiConformance>['violations']>[0],
  file: string,
) {
  for (const path of ['/api/v2/openapi.json', '/v1/openapi.json']) {
    const answer = await request(server).get(path);
    if (answer.status !== 200) continue;
    const lines = openApiConformance(answer.body).violations(exchanges);
    appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
  }
}
