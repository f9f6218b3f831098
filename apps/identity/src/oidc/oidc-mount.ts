import type { NestExpressApplication } from '@nestjs/platform-express';
import type Provider from 'oidc-provider';
import { requestContextMiddleware } from '@stdreg/server-kit';
import type { IdentityConfig } from '../config/identity.config';
import { OIDC_PROVIDER } from './oidc.module';

/**
 * Mounts the provider at the issuer's path. It runs before the HTTP kit's body parser: the provider
 * reads its request bodies itself.
 */
export function mountOidcProvider(app: NestExpressApplication, config: IdentityConfig): void {
  const provider = app.get<Provider>(OIDC_PROVIDER);
  app.use(config.oidcMountPath, requestContextMiddleware, provider.callback());
}
