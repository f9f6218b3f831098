import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ProblemDetailsFilter } from './problem-details.filter';
import { bodyInputPolicy } from './input-policy';
import { jsonBodyPolicy } from './json-body-policy';
import { createValidationPipe } from './validation-pipe';
import { requestContextMiddleware } from '../logging/request-context';
import { metricsMiddleware } from '../observability/metrics';
import { requestLogMiddleware } from '../logging/request-log';
import type { JsonLogger } from '../logging/json-logger';

export interface HttpKitOptions {
  logger: JsonLogger;
  /** Route prefix of the service's API, e.g. `api/v2`; health routes stay at the root. */
  globalPrefix?: string;
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Routes under the prefix whose bodies are forms, read by their own parser; every other body there is JSON. */
  formRoutes?: readonly string[];
}

/**
 * Applies the conventions every service shares: request ids and traces, metrics (GET /metrics), problem
 * details, the input policy (input-policy.ts), strict validation. Signals are handled by runService (graceful shutdown), not here.
 */
export function configureHttpApp(app: INestApplication, options: HttpKitOptions): void {
  const expressApp = app as NestExpressApplication;
  expressApp.useLogger(options.logger);
  expressApp.set('x-powered-by', false);
  expressApp.set('etag', false);
  expressApp.set('query parser', 'simple');
  expressApp.use(requestContextMiddleware);
  expressApp.use(metricsMiddleware);
  expressApp.use(requestLogMiddleware(options.logger));
  expressApp.useBodyParser('json', { limit: options.bodyLimit ?? '256kb', type: ['application/json', 'application/merge-patch+json'] });
  expressApp.use(bodyInputPolicy);
  if (options.globalPrefix) {
    expressApp.use(jsonBodyPolicy(options.globalPrefix, options.formRoutes));
    expressApp.setGlobalPrefix(options.globalPrefix, { exclude: ['healthz', 'readyz', 'metrics'] });
  }
  expressApp.useGlobalFilters(new ProblemDetailsFilter(options.logger));
  expressApp.useGlobalPipes(createValidationPipe());
}
