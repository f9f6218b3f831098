import type { ServerResponse } from 'node:http';
import { routeTemplate, type RoutedRequest } from '../observability/metrics';
import type { JsonLogger } from './json-logger';
import { requestContext } from './request-context';

/**
 * Express middleware: at `debug`, one line per answered request (method, route template, status, time),
 * with its request id and trace id like every other line of the request. Costs nothing at other levels.
 */
export function requestLogMiddleware(logger: JsonLogger) {
  return (req: RoutedRequest, res: ServerResponse, next: () => void): void => {
    if (!logger.isEnabled('debug')) return next();
    const startedAt = process.hrtime.bigint();
    const context = requestContext.getStore();
    res.once('finish', () => {
      const fields = {
        method: req.method,
        route: routeTemplate(req),
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - startedAt) / 1e6,
      };
      const write = () => logger.event('debug', 'request answered', fields, 'Http');
      if (context) requestContext.run(context, write);
      else write();
    });
    next();
  };
}
