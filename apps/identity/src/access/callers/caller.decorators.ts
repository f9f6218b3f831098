import { applyDecorators, createParamDecorator, type ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ProblemDetailsDto } from '@stdreg/contracts';
import type { DomainError } from '@stdreg/server-kit';
import type { KeyCaller, RequestWithCaller } from './caller';
import { KeyAuthGuard, KeyRateLimitGuard, KeyRequirementGuard, RequireOfKey } from './key-auth.guard';
import type { ServiceRight } from '../../platform/config/identity.config';
import { NeedsServiceRight, ServiceTokenGuard } from './service-token.guard';

// What a route of identity needs to know who calls it: one of these, from CallersModule, which is the
// only module a controller's module imports for them.

/** An API key is required (either class), and the key's rate limit applies; a route may ask more of it (`AgentKeyRefused`). */
export function KeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(KeyAuthGuard, KeyRateLimitGuard, KeyRequirementGuard),
    ApiBearerAuth('api-key'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, unknown, revoked or expired key', type: ProblemDetailsDto }),
    ApiTooManyRequestsResponse({ description: 'Rate limited (Retry-After says when to retry)', type: ProblemDetailsDto }),
  );
}

/** A platform-class key is required; app keys get 403. */
export function PlatformKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    RequireOfKey({ platformKey: true }),
    UseGuards(KeyAuthGuard, KeyRateLimitGuard, KeyRequirementGuard),
    ApiBearerAuth('api-key'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, unknown, revoked or expired key', type: ProblemDetailsDto }),
    ApiForbiddenResponse({ description: 'An app key: this operation needs a platform key', type: ProblemDetailsDto }),
    ApiTooManyRequestsResponse({ description: 'Rate limited (Retry-After says when to retry)', type: ProblemDetailsDto }),
  );
}

/**
 * A route under `KeyAuth()` that an agent's key (AGT-1) may not call: it is answered with `refusal`, the route's
 * feature's own 403, before the request's body or parameters are read. Documented by the route's own `ApiForbiddenResponse`.
 */
export function AgentKeyRefused(refusal: () => DomainError): MethodDecorator {
  return RequireOfKey({ notAgentKey: refusal });
}

/**
 * A platform service holding a configured service credential with `right` (SERVICE_RIGHTS): the decision endpoint
 * and the subject-change feed, token exchange, event handover.
 */
export function ServiceAuth(right: ServiceRight): MethodDecorator & ClassDecorator {
  return applyDecorators(
    NeedsServiceRight(right),
    UseGuards(ServiceTokenGuard),
    ApiForbiddenResponse({ description: `The service credential does not hold the right "${right}"`, type: ProblemDetailsDto }),
  );
}

/** The calling key of a route under `KeyAuth()` or `PlatformKeyAuth()`. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): KeyCaller => {
  const caller = context.switchToHttp().getRequest<RequestWithCaller>().caller;
  if (!caller) throw new Error('Caller used on a route without KeyAuth()');
  return caller;
});
