import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiServiceUnavailableResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ORGANIZATION_HEADER, ProblemDetailsDto, type Action } from '@stdreg/contracts';
import type { Caller, CallerRequest } from './caller';
import { CALLER_REQUIREMENT, CallerGuard, type CallerRequirement } from './caller.guard';

/**
 * The route is protected: identity must allow `action` for the caller's credential in the
 * organization named by X-Organization-Id before the handler (and so the database) is reached.
 * `project` names the route parameter holding the split project the request is about, so identity
 * decides about that project (`@Authorize('split-project:read', { project: 'id' })`).
 */
export function Authorize(action: Action, options: { project?: string } = {}): MethodDecorator {
  const requirement: CallerRequirement = { action, ...(options.project === undefined ? {} : { projectParam: options.project }) };
  return applyDecorators(
    SetMetadata(CALLER_REQUIREMENT, requirement),
    UseGuards(CallerGuard),
    ApiBearerAuth('credential'),
    ApiHeader({ name: ORGANIZATION_HEADER, required: true, description: 'The organization the request acts in (uuid)' }),
    ApiUnauthorizedResponse({
      description:
        'No credential, or one identity does not know (unknown, expired, revoked, for another audience: ' +
        '`WWW-Authenticate: Bearer error="invalid_token"`); or, for a formal write, a sign-in older than identity allows: `WWW-Authenticate: Bearer ' +
        'error="insufficient_user_authentication", max_age=<seconds>` (RFC 9470), and the person signs in again',
      type: ProblemDetailsDto,
    }),
    ApiForbiddenResponse({ description: `identity denied ${action}`, type: ProblemDetailsDto }),
    ApiNotFoundResponse({ description: 'No such resource in this organization', type: ProblemDetailsDto }),
    ApiServiceUnavailableResponse({
      description: 'authorization_unavailable: identity could not be asked; nothing was done',
      type: ProblemDetailsDto,
    }),
  );
}

/** The caller of an @Authorize route, as identity's allow described them. */
export const Authorized = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<CallerRequest>().caller;
  if (!caller) throw new Error('Authorized used on a route without @Authorize');
  return caller;
});
