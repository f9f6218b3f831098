import { Module } from '@nestjs/common';
import { JsonLogger, serviceConfigProviders } from '@stdreg/server-kit';
import { StandardsApiConfig } from './standards-api.config';

/** The validated config and the logger: a module whose providers inject either imports this one. */
@Module({
  providers: serviceConfigProviders(StandardsApiConfig),
  exports: [StandardsApiConfig, JsonLogger],
})
export class StandardsApiConfigModule {}
