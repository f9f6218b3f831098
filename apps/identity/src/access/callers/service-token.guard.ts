import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { bearerCredential } from '@stdreg/server-kit';
import { IdentityConfig, type ServiceRight } from '../../platform/config/identity.config';
import { serviceCredentialRequired, serviceRightMissing } from './callers.errors';

/** The calling service, and its credential, which also signs identity's answers to it. */
export type RequestWithService = Request & { serviceName?: string; serviceToken?: string };

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

const SERVICE_RIGHT = 'identity:service-right';

/** The right a route under `ServiceAuth` needs of the calling service's credential. */
export const NeedsServiceRight = (right: ServiceRight) => SetMetadata(SERVICE_RIGHT, right);

/** Service routes answer only services holding a configured service credential, with the right the route needs. */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  private readonly services: { digest: Buffer; name: string; token: string }[];
  private readonly rights: Map<string, Set<ServiceRight>> | null;

  constructor(
    @Inject(IdentityConfig) config: IdentityConfig,
    private readonly reflector: Reflector,
  ) {
    this.services = [...config.serviceTokens].map(([token, name]) => ({ digest: digest(token), name, token }));
    this.rights = config.serviceRights;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithService>();
    const credential = bearerCredential(request.headers.authorization);
    const presented = credential ? digest(credential) : null;
    // Compare against every credential so the time taken does not say which one was close.
    let service: string | undefined;
    let token: string | undefined;
    for (const candidate of this.services) {
      if (presented && timingSafeEqual(presented, candidate.digest)) ({ name: service, token } = candidate);
    }
    if (!service) {
      throw serviceCredentialRequired();
    }
    const right = this.reflector.getAllAndOverride<ServiceRight>(SERVICE_RIGHT, [context.getHandler(), context.getClass()]);
    if (this.rights && !this.rights.get(service)?.has(right)) throw serviceRightMissing(service, right);
    request.serviceName = service;
    request.serviceToken = token;
    return true;
  }
}
