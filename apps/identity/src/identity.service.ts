import type { ServiceDefinition } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { IdentityConfig } from './config/identity.config';

export const IDENTITY: ServiceDefinition<IdentityConfig> = {
  service: 'identity',
  configClass: IdentityConfig,
  rootModule: () => AppModule,
  port: (config) => config.IDENTITY_PORT,
  host: (config) => config.HOST,
  globalPrefix: 'v1',
};
