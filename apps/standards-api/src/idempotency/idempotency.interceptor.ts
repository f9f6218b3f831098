import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { IDEMPOTENT_REPLAYED_HEADER } from '@stdreg/contracts';
import { IDEMPOTENT_WRITES_EXTENSION, routeTemplate } from '@stdreg/server-kit';
import { createHash, randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { canonicalJson } from '@stdreg/split-engine';
import type { Request } from 'express';
import { actorOf, type CallerRequest } from '../callers/caller';
import { answerLost, inProgress, keyMalformed, keyReused } from './idempotency.errors';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;
const ABANDONED_AFTER_SECONDS = 60;

/**
 * `Idempotency-Key` on protected POSTs and DELETEs: the first successful result is kept per actor (an agent's
 * together with the person it acts for: one agent client serves many people), organization, route and key; a retry with the same body gets it again without a second write,
 * another body with the same key is a 422, and a retry while the first is still running a 409 (in_progress, also
 * between its write's commit and the storing of its answer); so is one after a first request whose write committed
 * but whose answer was not stored within the takeover time (answer_lost).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly writes: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & CallerRequest>();
    const key = request.headers['idempotency-key'];
    if ((request.method !== 'POST' && request.method !== 'DELETE') || key === undefined || !request.caller) return next.handle();
    if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
      throw keyMalformed();
    }
    // A DELETE's path is also a GET's (and may one day be a POST's): its scope says the method; a POST's stays as stored before.
    const method = request.method === 'POST' ? '' : `${request.method} `;
    const scope = `${actorOf(request.caller)}|${request.caller.organizationId}|${method}${routePath(request)}`;
    const requestHash = createHash('sha256')
      .update(canonicalJson(request.body ?? null))
      .digest('hex');
    return from(this.handle(context, next, scope, key, requestHash));
  }

  private async handle(context: ExecutionContext, next: CallHandler, scope: string, key: string, requestHash: string): Promise<unknown> {
    const response = context.switchToHttp().getResponse<Response>();
    const claim = { scope, key, claimId: randomUUID() };
    const existing = await this.records.claim(claim, requestHash, ABANDONED_AFTER_SECONDS);
    if (existing) {
      if (existing.requestHash !== requestHash) {
        throw keyReused();
      }
      // A write committed moments ago is still storing its answer: the retry is early, not too late.
      if (existing.status === null && existing.performed && existing.abandoned) {
        throw answerLost();
      }
      if (existing.status === null) throw inProgress();
      response.status(existing.status);
      response.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return existing.body;
    }
    try {
      const body = await this.writes.runClaimed(claim, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
      await this.records.complete(claim, response.statusCode, body);
      return body;
    } catch (error) {
      await this.records.release(claim);
      throw error;
    }
  }
}

/**
 * The path as its route spells it, with the request's parameters: Express also routes `/api/v2/split-projects/` and
 * `/API/V2/Split-Projects` to `/api/v2/split-projects`, and a retry so spelled is the same request. The usual spelling
 * is unchanged, so keys stored before still match.
 */
function routePath(request: Request): string {
  return routeTemplate(request).replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(request.params[name] ?? '')));
}

/** The controller's protected POSTs and DELETEs take an Idempotency-Key (its module imports IdempotencyModule). */
export function IdempotentWrites(): ClassDecorator {
  return applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiExtension(IDEMPOTENT_WRITES_EXTENSION, true));
}
