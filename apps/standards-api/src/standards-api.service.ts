import type { ServiceDefinition } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { StandardsApiConfig } from './config/standards-api.config';
import { serveOpenApi } from './openapi/openapi';

/** How standards-api is assembled; used by main.ts, the tests and the benchmark alike. */
export const STANDARDS_API: ServiceDefinition<StandardsApiConfig> = {
  service: 'standards-api',
  configClass: StandardsApiConfig,
  rootModule: (config) => AppModule.register(config),
  port: (config) => config.STANDARDS_API_PORT,
  host: (config) => config.HOST,
  globalPrefix: 'api/v2',
  configure: (app) => serveOpenApi(app),
};
