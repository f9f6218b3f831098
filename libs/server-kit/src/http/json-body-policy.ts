import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ErrorCode } from '@stdreg/contracts';
import { DomainError } from './domain-error';

const METHODS_WITH_BODIES = new Set(['POST', 'PUT', 'PATCH']);

function declaresBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Refuses with 415 a body the JSON parser left unread on a route of the API. A JSON body sent as `text/plain`, as a
 * form (curl's default) or with no Content-Type would otherwise reach the route as no body at all, and be answered
 * with every field missing. `formRoutes` (under the prefix) read their own urlencoded bodies.
 */
export function jsonBodyPolicy(apiPrefix: string, formRoutes: readonly string[] = []): RequestHandler {
  // The router matches paths in any letter case (`/API/V2/x` is `/api/v2/x`), so they are compared in lower case.
  const api = `/${apiPrefix}/`.toLowerCase();
  const forms = formRoutes.map((route) => `${api}${route}`.toLowerCase());
  const isForm = (path: string) => forms.some((form) => path === form || path.startsWith(`${form}/`));
  return (request: Request, _response: Response, next: NextFunction) => {
    const unread = METHODS_WITH_BODIES.has(request.method) && request.body === undefined && declaresBody(request);
    const path = request.path.toLowerCase();
    if (!unread || !path.startsWith(api) || isForm(path)) return next();
    next(new DomainError(ErrorCode.UnsupportedMediaType, 'This route takes a JSON body: send it with Content-Type: application/json.'));
  };
}
