import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceDefinition } from '@stdreg/server-kit';
import { AppModule } from './app.module';
import { IdentityConfig } from './platform/config/identity.config';
import { mountOidcProvider } from './sign-in/oidc/oidc-mount';
import { serveOpenApi } from './openapi';

export const IDENTITY: ServiceDefinition<IdentityConfig> = {
  service: 'identity',
  configClass: IdentityConfig,
  rootModule: (config) => AppModule.register(config),
  port: (config) => config.IDENTITY_PORT,
  host: (config) => config.HOST,
  globalPrefix: 'v1',
  // A sync batch of 1000 records at the field limits is about 700 kB.
  bodyLimit: '1mb',
  // The people-facing pages post urlencoded forms (formBodyMiddleware).
  formRoutes: ['signin', 'password-setup'],
  // The OpenID Provider reads its own raw request bodies: mounted before the kit's JSON parser.
  beforeKit: mountOidcProvider,
  configure: (app: NestExpressApplication, config) => {
    app.set('trust proxy', config.TRUSTED_PROXY_HOPS);
    serveOpenApi(app, config.oidcIssuer);
  },
};
