import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { IdentityConfig } from '../../platform/config/identity.config';
import { serviceCredentialRequired } from './callers.errors';

/** The calling service, and its credential, which also signs identity's answers to it. */
export type RequestWithService = Request & { serviceName?: string; serviceToken?: string };

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The decision endpoint answers only services holding a configured service credential. */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  private readonly services: { digest: Buffer; name: string; token: string }[];

  constructor(@Inject(IdentityConfig) config: IdentityConfig) {
    this.services = [...config.serviceTokens].map(([token, name]) => ({ digest: digest(token), name, token }));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithService>();
    const match = /^Bearer ([^\s]+)$/.exec(request.headers.authorization ?? '');
    const presented = match ? digest(match[1]!) : null;
    // Compare against every credential so the time taken does not say which one was close.
    let service: string | undefined;
    let token: string | undefined;
    for (const candidate of this.services) {
      if (presented && timingSafeEqual(presented, candidate.digest)) ({ name: service, token } = candidate);
    }
    if (!service) {
      throw serviceCredentialRequired();
    }
    request.serviceName = service;
    request.serviceToken = token;
    return true;
  }
}
