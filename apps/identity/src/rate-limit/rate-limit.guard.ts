import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { RequestWithCaller } from '../callers/caller';
import { RateLimiter } from './rate-limiter';

/** Per-key rate limit; runs after KeyAuthGuard. */
@Injectable()
export class KeyRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    if (!request.caller) throw new Error('KeyRateLimitGuard needs KeyAuthGuard before it');
    await this.limiter.limitKey(request.caller, request.method, context.switchToHttp().getResponse<Response>());
    return true;
  }
}

/** Per-client-IP rate limit for anonymous routes (the waitlist). */
@Injectable()
export class IpRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    await this.limiter.limitWaitlist(request.ip ?? 'unknown', context.switchToHttp().getResponse<Response>());
    return true;
  }
}
