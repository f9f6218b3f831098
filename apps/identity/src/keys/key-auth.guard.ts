import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { KeyClass } from '@stdreg/contracts';
import { DomainError } from '@stdreg/server-kit';
import { AuditService } from '../audit/audit.service';
import { KeysService } from './keys.service';
import { actorOf, type RequestWithCaller } from '../callers/caller';

const unauthenticated = (description: string) =>
  DomainError.of('keys.credential_invalid', 'A valid API key is required: Authorization: Bearer <key>.', {
    headers: {
      'WWW-Authenticate': `Bearer realm="identity", error="invalid_token", error_description="${description}"`,
    },
  });

/** Resolves `Authorization: Bearer <key>` to the calling key; records every use of a platform key. */
@Injectable()
export class KeyAuthGuard implements CanActivate {
  constructor(
    private readonly keys: KeysService,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithCaller>();
    const header = request.headers.authorization;
    if (!header) {
      throw DomainError.of('keys.credential_missing', 'A valid API key is required: Authorization: Bearer <key>.', {
        headers: {
          'WWW-Authenticate': 'Bearer realm="identity"',
        },
      });
    }
    const match = /^Bearer ([^\s]+)$/.exec(header);
    if (!match) throw unauthenticated('malformed Authorization header');
    const caller = await this.keys.authenticate(match[1]!);
    if (!caller) throw unauthenticated('unknown, revoked or expired key');
    request.caller = caller;
    if (caller.keyClass === KeyClass.Platform) {
      await this.audit.record(actorOf(caller), { action: 'key.use', target: `${request.method} ${request.originalUrl.split('?')[0]}` });
    }
    return true;
  }
}

/** Platform-class keys only; an app key gets 403. */
@Injectable()
export class PlatformKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
    if (caller?.keyClass !== KeyClass.Platform) {
      throw DomainError.of('keys.platform_key_required', 'This operation needs a platform key.');
    }
    return true;
  }
}
