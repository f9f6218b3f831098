import { runService } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { IdentityConfig } from './config/identity.config';

await runService({
  service: 'identity',
  configClass: IdentityConfig,
  rootModule: () => AppModule,
  port: (config) => config.IDENTITY_PORT,
  host: (config) => config.HOST,
  globalPrefix: 'v1',
});
