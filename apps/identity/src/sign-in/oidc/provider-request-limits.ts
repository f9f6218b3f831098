import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ErrorCode, withoutTrailingSlashes } from '@stdreg/contracts';
import { DomainError, httpStatusFor } from '@stdreg/server-kit';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { chooseLocale } from '../pages/signin-locale';
import { messagePage, sendPage } from '../pages/signin-pages';
import { textsFor } from '../pages/signin-texts';

/** The provider's endpoints that store something for anyone who asks (paths under the issuer), and the bucket each spends. */
const LIMITED: Record<string, { methods: ReadonlySet<string>; kind: 'registration' | 'flow' }> = {
  '/reg': { methods: new Set(['POST']), kind: 'registration' },
  '/auth': { methods: new Set(['GET', 'POST']), kind: 'flow' },
  '/session/end': { methods: new Set(['GET', 'POST']), kind: 'flow' },
};

/**
 * Runs before the provider, mounted at the issuer's path: a registration, an authorization request or a
 * logout each spends one of the client IP's tokens before the provider stores anything for it. A
 * refusal is 429 (or 503 when the limits cannot be read) with Retry-After: OAuth's error body for a
 * registration, a page for a browser.
 */
export function providerRequestLimits(limiter: RateLimiter): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const limited = LIMITED[withoutTrailingSlashes(req.path).toLowerCase()];
    if (limited === undefined || !limited.methods.has(req.method)) return next();
    limiter.limitProviderRequest(req.ip ?? 'unknown', limited.kind, res).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof DomainError)) return next(error);
        refuse(req, res, error, limited.kind);
      },
    );
  };
}

function refuse(req: Request, res: Response, error: DomainError, kind: 'registration' | 'flow'): void {
  const status = httpStatusFor(error.code);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  if (kind === 'registration') {
    res.status(status).set('Cache-Control', 'no-store').json({ error: 'temporarily_unavailable', error_description: error.detail });
    return;
  }
  const uiLocales = req.query['ui_locales'];
  const locale = chooseLocale(typeof uiLocales === 'string' ? uiLocales : undefined, req.headers['accept-language']);
  const t = textsFor(locale);
  const minutes = Math.max(1, Math.ceil(Number(error.headers?.['Retry-After'] ?? 60) / 60));
  const why = error.code === ErrorCode.RateLimited ? t.tooManyFromHere(minutes) : t.signInUnavailable;
  sendPage(
    res,
    status,
    messagePage(locale, (texts) => texts.errorTitle, why, 'alert'),
  );
}
