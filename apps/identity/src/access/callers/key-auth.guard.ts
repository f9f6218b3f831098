import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { KeyClass } from '@stdreg/contracts';
import { bearerCredential } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { actorOf, type RequestWithCaller } from './caller';
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
    if (caller.keyClass === KeyClass.Platform || caller.agentSupervisorUid !== null) {
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

/** Platform-class keys only; an app key gets 403. */
@Injectable()
export class PlatformKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
    if (caller?.keyClass !== KeyClass.Platform) {
      throw platformKeyRequired();
    }
    return true;
  }
}
