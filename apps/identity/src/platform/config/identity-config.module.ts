import { Module } from '@nestjs/common';
import { JsonLogger, serviceConfigProviders } from '@stdreg/server-kit';
import { IdentityConfig } from './identity.config';

/** The validated config and the logger: a module whose providers inject either imports this one. */
@Module({
  providers: serviceConfigProviders(IdentityConfig),
  exports: [IdentityConfig, JsonLogger],
})
export class IdentityConfigModule {}
