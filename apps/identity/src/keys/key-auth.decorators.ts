import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ProblemDetailsDto } from '@stdreg/contracts';
import { KeyRateLimitGuard } from '../rate-limit/rate-limit.guard';
import { KeyAuthGuard, PlatformKeyGuard } from './key-auth.guard';

/** An API key is required (either class), and the key's rate limit applies. */
export function KeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(KeyAuthGuard, KeyRateLimitGuard),
    ApiBearerAuth('api-key'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, unknown, revoked or expired key', type: ProblemDetailsDto }),
    ApiTooManyRequestsResponse({ description: 'Rate limited (Retry-After says when to retry)', type: ProblemDetailsDto }),
  );
}

/** A platform-class key is required; app keys get 403. */
export function PlatformKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(KeyAuthGuard, KeyRateLimitGuard, PlatformKeyGuard),
    ApiBearerAuth('api-key'),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, unknown, revoked or expired key', type: ProblemDetailsDto }),
    ApiForbiddenResponse({ description: 'An app key: this operation needs a platform key', type: ProblemDetailsDto }),
    ApiTooManyRequestsResponse({ description: 'Rate limited (Retry-After says when to retry)', type: ProblemDetailsDto }),
  );
}
