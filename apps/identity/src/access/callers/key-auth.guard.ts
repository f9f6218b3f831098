import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { bearerCredential, type DomainError } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { actorOf, keyKindOf, type RequestWithCaller } from './caller';
import { credentialInvalid, credentialMissing, platformKeyRequired } from './callers.errors';
import { KeyAuthentication } from './key-authentication';

/** Resolves `Authorization: Bearer <key>` to the calling key; records every use of a platform key or an agent's key. */
@Injectable()
export class KeyAuthGuard implements CanActivate {
  constructor(
    private readonly keys: KeyAuthentication,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const header = request.headers.authorization;
    if (!header) {
      throw credentialMissing();
    }
    const key = bearerCredential(header);
    if (!key) throw credentialInvalid('malformed Authorization header');
    const caller = await this.keys.authenticate(key);
    if (!caller) throw credentialInvalid('unknown, revoked or expired key');
    request.caller = caller;
    if (keyKindOf(caller).kind !== 'app_key') {
      await this.audit.record(actorOf(caller), { action: 'key.use', target: `${request.method} ${request.originalUrl.split('?')[0]}` });
    }
    return true;
  }
}

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

/**
 * What a keyed route asks of its key beyond being valid: a platform key, or any key but an agent's (AGT-1), refused
 * with the route's own domain error. An agent's key is always of the app class, so a platform-only route refuses it too.
 */
export interface KeyRequirement {
  platformKey?: true;
  notAgentKey?: () => DomainError;
}

const KEY_REQUIREMENT = 'identity:key-requirement';

export const RequireOfKey = (requirement: KeyRequirement) => SetMetadata(KEY_REQUIREMENT, requirement);

/** What a route declares of its key, on its controller and on itself together (so neither undoes the other); empty for any valid key. */
export function keyRequirementOf(
  reflector: Reflector,
  handler: ReturnType<ExecutionContext['getHandler']>,
  controller: ReturnType<ExecutionContext['getClass']>,
): KeyRequirement {
  const [onHandler, onController] = reflector.getAll<(KeyRequirement | undefined)[]>(KEY_REQUIREMENT, [handler, controller]);
  return { ...onController, ...onHandler };
}

/** Where a keyed route's declared requirement is kept; runs after KeyAuthGuard and the rate limit, as the services' checks did. */
@Injectable()
export class KeyRequirementGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
    if (!caller) throw new Error('KeyRequirementGuard needs KeyAuthGuard before it');
    const requirement = keyRequirementOf(this.reflector, context.getHandler(), context.getClass());
    const key = keyKindOf(caller);
    if (requirement.platformKey && key.kind !== 'platform_key') throw platformKeyRequired();
    if (requirement.notAgentKey && key.kind === 'agent') throw requirement.notAgentKey();
    return true;
  }
}
