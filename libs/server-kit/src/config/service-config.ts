import type { Provider, Type } from '@nestjs/common';
import { JsonLogger } from '../logging/json-logger';
import type { CommonServiceConfig } from './common-config';

/**
 * The service's validated config and logger, provided by the kit's settings module (the one global of
 * the kit besides `DatabaseModule`, as Nest's own `ConfigHostModule`). Not exported from the kit: a
 * feature reaches the config and the logger only through its app's config module.
 */
export const SERVICE_SETTINGS = Symbol('SERVICE_SETTINGS');

export interface ServiceSettings {
  config: CommonServiceConfig;
  logger: JsonLogger;
}

/**
 * The providers of an app's own config module (not global): the validated config under its class, and
 * the logger. A module whose providers inject either imports that module; Nest refuses to start otherwise.
 */
export function serviceConfigProviders<C extends CommonServiceConfig>(configClass: Type<C>): Provider[] {
  return [
    { provide: configClass, useFactory: (settings: ServiceSettings) => settings.config, inject: [SERVICE_SETTINGS] },
    { provide: JsonLogger, useFactory: (settings: ServiceSettings) => settings.logger, inject: [SERVICE_SETTINGS] },
  ];
}
