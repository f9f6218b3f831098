import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimiter } from './rate-limiter';

/** Per-client-IP rate limit for anonymous routes (the waitlist). */
@Injectable()
export class IpRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    await this.limiter.limitWaitlist(request.ip ?? 'unknown', context.switchToHttp().getResponse<Response>());
    return true;
  }
}
