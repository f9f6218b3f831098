import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type Provider from 'oidc-provider';
import { requestContextMiddleware } from '@stdreg/server-kit';
import type { IdentityConfig } from '../../platform/config/identity.config';
import { OIDC_PROVIDER } from './oidc.module';
import { providerRequestLimits } from './provider-request-limits';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** RFC 8414's metadata URL for an issuer with a path: the well-known name inserted before the path. */
export function authorizationServerMetadataPath(issuer: string): string {
  return `/.well-known/oauth-authorization-server${new URL(issuer).pathname}`;
}

/**
 * Mounts the provider at the issuer's path. It runs before the HTTP kit's body parser: the provider
 * reads its request bodies itself, and after the per-client-IP limits of the requests that store something
 * for anyone who asks. RFC 8414's metadata (`/.well-known/oauth-authorization-server/<issuer
 * path>`, outside the mount, where MCP clients look first) is the provider's own discovery document,
 * answered by the provider: one document, so the two cannot differ.
 */
export function mountOidcProvider(app: NestExpressApplication, config: IdentityConfig): void {
  const provider = app.get<Provider>(OIDC_PROVIDER);
  const callback = provider.callback();
  app.use(config.oidcMountPath, requestContextMiddleware, providerRequestLimits(app.get(RateLimiter)), callback);
  app.use(
    authorizationServerMetadataPath(config.oidcIssuer),
    requestContextMiddleware,
    (req: Request, res: Response, next: NextFunction) => {
      const queryAt = req.url.indexOf('?');
      if ((queryAt === -1 ? req.url : req.url.slice(0, queryAt)) !== '/') return next();
      // As if asked at the issuer: the provider builds its endpoint URLs from the mount path it finds here.
      req.url = `${DISCOVERY_PATH}${queryAt === -1 ? '' : req.url.slice(queryAt)}`;
      req.originalUrl = `${config.oidcMountPath}${req.url}`;
      void callback(req, res);
    },
  );
}
