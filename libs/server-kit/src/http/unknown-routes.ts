import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { routeNotFound, sendProblem } from './problem-details.filter';

/** An answer no route gave: the API's problem details, as for a path under its prefix. */
export function answerUnknownRoute(request: Request, response: Response): void {
  sendProblem(response, routeNotFound(request.method, request.originalUrl));
}

/**
 * Nest's own not-found handler reaches only the global prefix and the routes excluded from it: any other path
 * (`/`, `/x`, `/api`) fell through to Express's final handler, an HTML "Cannot GET /x". Added last, after Nest has
 * registered its routes and handlers (bootstrap hooks run after them), so it answers only what nothing else did.
 */
@Injectable()
export class UnknownRoutes implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter.use(answerUnknownRoute);
  }
}
