import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { type DynamicModule, Module, type NestApplicationOptions, type Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfigOrExit } from '../config/load-config';
import type { CommonServiceConfig } from '../config/common-config';
import { JsonLogger } from '../logging/json-logger';
import { configureHttpApp } from './configure-app';
import { headerInputPolicy, urlInputPolicy } from './input-policy';
import { notStoredUnlessRouteSays } from './cache-policy';
import { keepIdleConnectionsOpen } from './idle-connections';
import { answerUnparsableRequests } from './unparsable-requests';
import { handleShutdownSignals } from './graceful-shutdown';
import { UnknownRoutes } from './unknown-routes';
import { MIGRATE_ON_START } from '../database/migration-policy';
import { SERVICE_SETTINGS, type ServiceSettings } from '../config/service-config';

export interface ServiceDefinition<C extends CommonServiceConfig> {
  service: string;
  configClass: new () => C;
  rootModule: (config: C, logger: JsonLogger) => DynamicModule | Type;
  port: (config: C) => number;
  host: (config: C) => string;
  globalPrefix?: string;
  /** Largest accepted JSON body (default 256kb). */
  bodyLimit?: string;
  /** Routes under the prefix whose bodies are forms (the sign-in pages), left to their own parser. */
  formRoutes?: readonly string[];
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
  answerUnparsableRequests(app.getHttpServer());
  keepIdleConnectionsOpen(app.getHttpServer());
  // Before everything, the sub-applications of beforeKit included: no answer is cacheable unless its route says so,
  // and no route sees a URL it cannot store or header fields it could read two ways.
  app.use(notStoredUnlessRouteSays);
  app.use(headerInputPolicy);
  app.use(urlInputPolicy);
  definition.beforeKit?.(app, config);
  configureHttpApp(app, {
    logger,
    ...(definition.globalPrefix ? { globalPrefix: definition.globalPrefix } : {}),
    ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
    ...(definition.formRoutes ? { formRoutes: definition.formRoutes } : {}),
  });
  await definition.configure?.(app, config);
}

/**
 * The service's root module with the kit's settings beside it: MIGRATE_ON_START, read by `DatabaseModule`,
 * and the validated config and logger, which each app's config module hands on (`serviceConfigProviders`).
 * Global, as `DatabaseModule.forRoot` is: the values belong to this one app (two apps in one process
 * have two), and the features' static modules can reach them only through a global module or by having
 * a module object passed down through every one of them. No module of an app is global (lint).
 */
export function serviceRootModule<C extends CommonServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  logger: JsonLogger,
): DynamicModule {
  const settings: DynamicModule = {
    module: class KitSettingsModule {},
    global: true,
    providers: [
      { provide: MIGRATE_ON_START, useValue: config.MIGRATE_ON_START },
      { provide: SERVICE_SETTINGS, useValue: { config, logger } satisfies ServiceSettings },
    ],
    exports: [MIGRATE_ON_START, SERVICE_SETTINGS],
  };
  return { module: ServiceRootModule, imports: [settings, definition.rootModule(config, logger)], providers: [UnknownRoutes] };
}

@Module({})
class ServiceRootModule {}

/** Creates the Nest app of a service with the shared conventions applied, without listening. */
export async function createServiceApp<C extends CommonServiceConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  logger = new JsonLogger(definition.service, config.LOG_LEVEL),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(serviceRootModule(definition, config, logger), serviceAppOptions(logger));
  await applyServiceKit(app, definition, config, logger);
  return app;
}

/**
 * Entry point of a service process: validated config first (fail fast, naming the variable), then listen.
 * `--check-config` only validates the environment and exits (0 valid, 1 naming every bad variable).
 */
export async function runService<C extends CommonServiceConfig>(definition: ServiceDefinition<C>): Promise<void> {
  const config = loadConfigOrExit(definition.service, definition.configClass);
  if (process.argv.includes('--check-config')) {
    process.stdout.write(`${definition.service}: configuration valid\n`);
    process.exit(0);
  }
  const logger = new JsonLogger(definition.service, config.LOG_LEVEL);
  const port = definition.port(config);
  const host = definition.host(config);
  try {
    const app = await createServiceApp(definition, config, logger);
    handleShutdownSignals(app, { logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    await app.listen(port, host);
  } catch (error) {
    // A dependency that is not there, a pending migration, a port in use: one clear line, exit 1.
    logger.event(
      'fatal',
      `${definition.service} could not start`,
      { error: error instanceof Error ? error.message : String(error) },
      'Bootstrap',
    );
    process.exit(1);
  }
  logger.event('info', `${definition.service} listening`, { url: `http://${host}:${port}` }, 'Bootstrap');
}
