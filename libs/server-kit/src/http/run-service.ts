import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, NestApplicationOptions, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigValidationError, loadConfig } from '../config/load-config';
import type { CommonServiceConfig } from '../config/common-config';
import { JsonLogger } from '../logging/json-logger';
import { configureHttpApp } from './configure-app';
import { handleShutdownSignals } from './graceful-shutdown';

export interface ServiceDefinition<C extends CommonServiceConfig> {
  service: string;
  configClass: new () => C;
  rootModule: (config: C, logger: JsonLogger) => DynamicModule | Type;
  port: (config: C) => number;
  host: (config: C) => string;
  globalPrefix?: string;
  /** Largest accepted JSON body (default 256kb). */
  bodyLimit?: string;
  /** Setup that must come before the kit's middleware, e.g. a sub-application that reads its own raw request bodies. */
  beforeKit?: (app: NestExpressApplication, config: C) => void;
  /** Service-specific setup after the kit is applied (OpenAPI document, extra middleware). */
  configure?: (app: NestExpressApplication, config: C) => void | Promise<void>;
}

/** The options every service's Nest application is created with. */
export function serviceAppOptions(logger: JsonLogger): NestApplicationOptions {
  return { logger, bodyParser: false, forceCloseConnections: false, abortOnError: false };
}

/** The shared conventions and the service's own setup, applied to a created application. */
export async function applyServiceKit<C extends CommonServiceConfig>(
  app: NestExpressApplication,
  definition: ServiceDefinition<C>,
  config: C,
  logger: JsonLogger,
): Promise<void> {
  definition.beforeKit?.(app, config);
  configureHttpApp(app, {
    logger,
    ...(definition.globalPrefix ? { globalPrefix: definition.globalPrefix } : {}),
    ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
  });
  await definition.configure?.(app, config);
}

/** Creates the Nest app of a service with the shared conventions applied, without listening. */
export async function createServiceApp<C extends CommonServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  logger = new JsonLogger(definition.service, config.LOG_LEVEL),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(definition.rootModule(config, logger), serviceAppOptions(logger));
  await applyServiceKit(app, definition, config, logger);
  return app;
}

/** Entry point of a service process: validated config first (fail fast, naming the variable), then listen. */
export async function runService<C extends CommonServiceConfig>(definition: ServiceDefinition<C>): Promise<void> {
  let config: C;
  try {
    config = loadConfig(definition.configClass);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${definition.service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new JsonLogger(definition.service, config.LOG_LEVEL);
  const app = await createServiceApp(definition, config, logger);
  const port = definition.port(config);
  const host = definition.host(config);
  handleShutdownSignals(app, { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  await app.listen(port, host);
  logger.event('info', `${definition.service} listening`, { url: `http://${host}:${port}` }, 'Bootstrap');
}
